//===- NpyTestUtil.h - Helpers shared by the .npy tests -------------------===//
//
// Hand-made .npy files: a temporary directory to hold them, the framing
// around a header text, and little-endian element bytes.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_TESTS_UNIT_NPY_NPYTESTUTIL_H
#define NORMC_TESTS_UNIT_NPY_NPYTESTUTIL_H

#include "normc/Runtime/Host/Npy.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <type_traits>

namespace normc::npy::test {

/// A fresh directory under the system's temporary directory, removed with
/// everything in it at the end of the test.
class NpyTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "normc-npy-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  /// Writes `bytes` to DIR/name and returns the path.
  std::string write(const std::string &name, const std::string &bytes) const {
    std::string path = dir + "/" + name;
    // A fresh file rather than a truncated one: ext4 flushes files that are
    // truncated and rewritten, which makes the fuzz tests crawl.
    std::filesystem::remove(path);
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  /// The message of the NpyError reading `path` throws, with the directory
  /// part of the path replaced by "DIR".
  std::string readError(const std::string &path) const {
    try {
      read(path);
    } catch (const NpyError &e) {
      std::string message = e.what();
      if (message.compare(0, dir.size(), dir) == 0)
        message.replace(0, dir.size(), "DIR");
      return message;
    }
    return "(no error)";
  }

  std::string dir;
};

/// A .npy file around a header text: magic, version, header length (2 bytes
/// in version 1, else 4), header, data.
inline std::string npyFile(const std::string &header, const std::string &data,
                           int major = 1, int minor = 0) {
  std::string bytes = "\x93NUMPY";
  bytes += static_cast<char>(major);
  bytes += static_cast<char>(minor);
  int lengthSize = major == 1 ? 2 : 4;
  for (int i = 0; i < lengthSize; ++i)
    bytes += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return bytes + header + data;
}

/// The usual header for a dtype and a shape such as "(2, 3)".
inline std::string header(const std::string &descr, const std::string &shape) {
  return "{'descr': '" + descr +
         "', 'fortran_order': False, 'shape': " + shape + ", }\n";
}

/// Little-endian bytes of values of type T (uint16_t, float, double).
template <typename T>
std::string littleEndian(std::initializer_list<T> values) {
  using Bits = std::conditional_t<
      sizeof(T) == 2, uint16_t,
      std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;
  std::string bytes;
  for (T v : values) {
    Bits bits;
    std::memcpy(&bits, &v, sizeof bits);
    for (size_t i = 0; i < sizeof bits; ++i)
      bytes += static_cast<char>((bits >> (8 * i)) & 0xff);
  }
  return bytes;
}

} // namespace normc::npy::test

#endif // NORMC_TESTS_UNIT_NPY_NPYTESTUTIL_H
