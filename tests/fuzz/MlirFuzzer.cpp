//===- MlirFuzzer.cpp - .mlir input through the verifiers to CUDA ---------===//
//
// Any bytes as the .mlir file of `normc compile FILE.mlir --emit=cuda` and
// `normc run --kernel`: reading, parsing, verifying, lowering and emitting
// either succeed or report an error; they never crash.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "normc/Frontend/SpecCompiler.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  normc::fuzz::InputFile file(data, size);
  std::string errors;
  normc::emitIRFile(file.path(), errors);
  return 0;
}
