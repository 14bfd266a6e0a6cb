//===- NpyErrorsTest.cpp - What the reader says about bad files -----------===//
//
// Every message starts with the path, so `normc run` can print it as is.
// Paths below read DIR/... for the test's temporary directory.
//
//===----------------------------------------------------------------------===//
#include "NpyTestUtil.h"

#include <sys/stat.h>
#include <thread>

using namespace normc::npy;
using namespace normc::npy::test;

namespace {

const std::string kFloats = littleEndian<float>({1, 2});

} // namespace

TEST_F(NpyTest, MissingFileAndDirectory) {
  EXPECT_EQ(readError(dir + "/missing.npy"),
            "DIR/missing.npy: cannot read file: No such file or directory");
  EXPECT_EQ(readError(dir), "DIR: cannot read file: Is a directory");
}

TEST_F(NpyTest, NotANpyFile) {
  for (const std::string &bytes :
       {std::string(), std::string("\x93NUM"), std::string("\x93NUMPZ\x01\x00"),
        std::string("PK\x03\x04 a zip file, as numpy.savez writes"),
        std::string("x,y\n1,2\n")})
    EXPECT_EQ(readError(write("x.npy", bytes)), "DIR/x.npy: not a .npy file")
        << bytes;
}

TEST_F(NpyTest, UnsupportedDtypes) {
  for (const char *descr : {"<i4", ">f4", "<c8", "|b1", "<f16", "|O", ""})
    EXPECT_EQ(
        readError(write("x.npy", npyFile(header(descr, "(2,)"), kFloats))),
        "DIR/x.npy: unsupported dtype '" + std::string(descr) +
            "'; expected float64, float32 or float16")
        << descr;
  EXPECT_EQ(
      readError(write("x.npy", npyFile(header("\x93"
                                              "f\n4",
                                              "(2,)"),
                                       kFloats))),
      "DIR/x.npy: unsupported dtype '\\x93f\\x0a4'; expected float64, float32 "
      "or float16");
  std::string structured = "{'descr': [('a', '<f4')], 'fortran_order': False, "
                           "'shape': (2,), }\n";
  EXPECT_EQ(readError(write("x.npy", npyFile(structured, kFloats))),
            "DIR/x.npy: unsupported dtype (a structured dtype); expected "
            "float64, float32 or float16");
}

TEST_F(NpyTest, FortranOrder) {
  std::string text =
      "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 2), }\n";
  EXPECT_EQ(readError(write("x.npy", npyFile(text, kFloats))),
            "DIR/x.npy: Fortran-order arrays are not supported; save a C-order "
            "array (numpy.ascontiguousarray)");
}

TEST_F(NpyTest, DataOfTheWrongSize) {
  EXPECT_EQ(readError(write("x.npy", npyFile(header("<f4", "(32, 32)"),
                                             std::string(100, '\0')))),
            "DIR/x.npy: truncated: expected 4096 bytes of data, found 100");
  EXPECT_EQ(readError(write("x.npy", npyFile(header("<f8", "(2,)"), ""))),
            "DIR/x.npy: truncated: expected 16 bytes of data, found 0");
  EXPECT_EQ(readError(write("x.npy",
                            npyFile(header("<f4", "(2,)"), kFloats + "xyzw"))),
            "DIR/x.npy: expected 8 bytes of data, found 12");
}

TEST_F(NpyTest, TruncatedHeader) {
  EXPECT_EQ(readError(write("x.npy", std::string("\x93NUMPY\x01", 7))),
            "DIR/x.npy: truncated: the file ends inside the header");
  EXPECT_EQ(readError(write("x.npy", std::string("\x93NUMPY\x02\x00\x10", 9))),
            "DIR/x.npy: truncated: the file ends inside the header");
  std::string file = npyFile(header("<f4", "(2,)"), "");
  EXPECT_EQ(readError(write("x.npy", file.substr(0, 30))),
            "DIR/x.npy: truncated: expected a header of " +
                std::to_string(file.size() - 10) + " bytes, found 20");
}

TEST_F(NpyTest, UnsupportedVersions) {
  EXPECT_EQ(
      readError(write("x.npy", npyFile(header("<f4", "(2,)"), kFloats, 4, 0))),
      "DIR/x.npy: unsupported .npy format version 4.0; expected 1.0, "
      "2.0 or 3.0");
  EXPECT_EQ(
      readError(write("x.npy", npyFile(header("<f4", "(2,)"), kFloats, 1, 1))),
      "DIR/x.npy: unsupported .npy format version 1.1; expected 1.0, "
      "2.0 or 3.0");
}

TEST_F(NpyTest, MalformedHeaders) {
  struct Case {
    std::string header, message;
  };
  const std::string f = "'fortran_order': False";
  for (const Case &c : std::vector<Case>{
           {"{'descr': '<f4', " + f + "}", "missing key 'shape'"},
           {"{'shape': (2,), " + f + "}", "missing key 'descr'"},
           {"{'descr': '<f4', 'shape': (2,)}", "missing key 'fortran_order'"},
           {"{'descr': '<f4', " + f + ", 'shape': (2,), 'x': 1}",
            "expected only the keys 'descr', 'fortran_order' and 'shape'"},
           {"{'descr': '<f4', " + f + ", 'shape': (2,), 'shape': (2,)}",
            "duplicate key 'shape'"},
           {"{'descr': '<f4', " + f + ", 'shape': (-2,)}",
            "'shape' must be a tuple of non-negative integers"},
           {"{'descr': '<f4', " + f + ", 'shape': [2]}",
            "'shape' must be a tuple of non-negative integers"},
           {"{'descr': '<f4', " + f + ", 'shape': (2)}",
            "'shape' must be a tuple of non-negative integers"},
           {"{'descr': '<f4', " + f + ", 'shape': ('2',)}",
            "'shape' must be a tuple of non-negative integers"},
           {"{'descr': 4, " + f + ", 'shape': (2,)}",
            "'descr' must be a string"},
           {"{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}",
            "'fortran_order' must be True or False"},
           {"{'descr': '<f4', " + f + ", 'shape': (2,)} x",
            "unexpected text after the dictionary"},
           {"{'descr': '<f4, " + f + ", 'shape': (2,)}",
            "expected ',' or '}' at offset 17"},
           {"{'descr': '<f4', " + f + ", 'shape': (2,",
            "unexpected end of the header"},
           {"{'descr': '<f4', " + f + ", 'shape': (2,)",
            "expected ',' or '}' at offset 54"},
           {"{'descr': '<f4', " + f + ", 'shape': (",
            "unexpected end of the header"},
           {"{'descr': '<f4', " + f + ", 'shape': (99999999999999999999,)}",
            "integer too large"},
           {"{'descr': '<f4', " + f + ", 'shape': (2,), 'x': " +
                std::string(100, '(') + std::string(100, ')') + "}",
            "values nested too deeply"},
           {"{'descr': '<f4', " + f + ", 'shape': (2,), 'x': 'abc}",
            "unterminated string"},
           {"{'descr': '<f4', " + f + ", 'shape': @}",
            "unexpected character at offset 50"},
           {"{1: '<f4'}", "dictionary keys must be strings"},
           {"", "expected '{' at offset 0"},
       }) {
    EXPECT_EQ(readError(write("x.npy", npyFile(c.header, kFloats))),
              "DIR/x.npy: malformed header: " + c.message)
        << c.header;
  }
}

TEST_F(NpyTest, ShapesTooLargeForMemory) {
  // 2^62 * 4 float32 elements would need 2^66 bytes.
  EXPECT_EQ(readError(write(
                "x.npy",
                npyFile(header("<f4", "(4611686018427387904, 4)"), kFloats))),
            "DIR/x.npy: shape (4611686018427387904, 4) is too large");
  // With a 0 dimension any other size is fine: the array is empty.
  Array empty = read(
      write("e.npy", npyFile(header("<f4", "(4611686018427387904, 0)"), "")));
  EXPECT_TRUE(empty.data.empty());
}

TEST_F(NpyTest, EndlessInputsAreReadNoFurtherThanTheirHeader) {
  // /dev/zero is read as far as its magic, not until memory runs out.
  EXPECT_EQ(readError("/dev/zero"), "/dev/zero: not a .npy file");
  // From a pipe: a header that announces more than this machine's memory
  // is refused before any data is read; more data than announced is an
  // error too.
  std::string fifo = dir + "/x.npy";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto through = [&](const std::string &bytes) {
    std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << bytes; });
    std::string error = readError(fifo);
    writer.join();
    return error;
  };
  std::string huge =
      through(npyFile(header("<f4", "(1099511627776, 4096)"), kFloats));
  EXPECT_NE(huge.find("shape (1099511627776, 4096) needs"), std::string::npos)
      << huge;
  EXPECT_NE(huge.find("MiB of memory"), std::string::npos) << huge;
  EXPECT_EQ(through(npyFile(header("<f4", "(2,)"), kFloats + "more")),
            "DIR/x.npy: expected 8 bytes of data, found 8 and more");
  EXPECT_EQ(through(npyFile(header("<f4", "(4,)"), kFloats)),
            "DIR/x.npy: truncated: expected 16 bytes of data, found 8");
}
