//===- Npy.h - Read and write NumPy .npy files ----------------------------===//
//
// The arrays `normc run` reads (float32, float64 or float16) and the float32
// arrays it writes. Reading never trusts the file: every malformed input is
// an NpyError whose message starts with the path.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_RUNTIME_NPY_H
#define NORMC_RUNTIME_NPY_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace normc::npy {

struct Array {
  std::vector<int64_t> shape; // empty for a 0-d array
  std::vector<double> data;   // row-major (C order), converted exactly
  std::string dtype;          // "float32", "float64" or "float16"
};

/// what() reads "WHERE: REASON"; WHERE is the file (or the function).
class NpyError : public std::runtime_error {
public:
  NpyError(const std::string &where, const std::string &reason)
      : std::runtime_error(where + ": " + reason), why(reason) {}
  const std::string &reason() const { return why; }

private:
  std::string why;
};

/// Reads a .npy file of format version 1.0, 2.0 or 3.0 holding a C-order,
/// little-endian float32, float64 or float16 array ('<f4', '<f8', '<f2';
/// '|' and '=' are taken as little-endian too). Anything else, and any
/// missing, truncated or malformed file, is an NpyError such as
///   x.npy: unsupported dtype '<i4'; expected float32, float64 or float16
Array read(const std::string &path);

/// The bytes of a float32 .npy file (version 1.0, header padded to 64 bytes)
/// holding the product of `shape` elements from `data` in C order. Throws
/// NpyError for a negative dimension.
std::string encodeFloat32(const std::vector<int64_t> &shape, const float *data);

} // namespace normc::npy

#endif // NORMC_RUNTIME_NPY_H
