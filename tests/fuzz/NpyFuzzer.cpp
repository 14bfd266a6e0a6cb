//===- NpyFuzzer.cpp - The .npy reader ------------------------------------===//
//
// Any bytes as a .npy file: the reader returns an array whose data matches
// its shape, or throws NpyError; it never crashes or over-allocates.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "normc/Runtime/Host/Npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  normc::fuzz::InputFile file(data, size);
  try {
    normc::npy::Array array = normc::npy::read(file.path());
    size_t count = 1;
    for (int64_t dim : array.shape)
      count *= static_cast<size_t>(dim);
    if (count != array.data.size())
      std::abort();
  } catch (const normc::npy::NpyError &) {
  }
  return 0;
}
