//===- NpyReadTest.cpp - Reading hand-made float64 and float16 files ------===//
//
// Files written byte by byte here, in the spellings numpy and other writers
// use, so the reader is not only tested against its own writer.
//
//===----------------------------------------------------------------------===//
#include "NpyTestUtil.h"

#include <cmath>
#include <vector>

using namespace normc::npy;
using namespace normc::npy::test;

TEST_F(NpyTest, Float64) {
  Array a = read(write(
      "d.npy", npyFile(header("<f8", "(2, 2)"),
                       littleEndian<double>({0.1, -2.5, 1e300, 5e-324}))));
  EXPECT_EQ(a.dtype, "float64");
  EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(a.data, (std::vector<double>{0.1, -2.5, 1e300, 5e-324}));
}

TEST_F(NpyTest, Float16) {
  // 0x3c00 = 1, 0xc000 = -2, 0x7bff = 65504 (largest), 0x0400 = 2^-14
  // (smallest normal), 0x0001 = 2^-24 (smallest subnormal), 0x03ff =
  // 1023 * 2^-24 (largest subnormal), 0x3555 = 1365/4096 (f16 nearest 1/3),
  // 0x8000 = -0, 0x7c00 = Inf, 0xfc00 = -Inf, 0x7e00 = NaN.
  Array a = read(write(
      "h.npy", npyFile(header("<f2", "(11,)"),
                       littleEndian<uint16_t>({0x3c00, 0xc000, 0x7bff, 0x0400,
                                               0x0001, 0x03ff, 0x3555, 0x8000,
                                               0x7c00, 0xfc00, 0x7e00}))));
  EXPECT_EQ(a.dtype, "float16");
  EXPECT_EQ(a.shape, std::vector<int64_t>{11});
  ASSERT_EQ(a.data.size(), 11u);
  std::vector<double> expected = {1,
                                  -2,
                                  65504,
                                  std::ldexp(1.0, -14),
                                  std::ldexp(1.0, -24),
                                  std::ldexp(1023.0, -24),
                                  1365.0 / 4096,
                                  0,
                                  INFINITY,
                                  -INFINITY};
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(a.data[i], expected[i]) << i;
  EXPECT_TRUE(std::signbit(a.data[7]));
  EXPECT_TRUE(std::isnan(a.data[10]));
}

TEST_F(NpyTest, EveryFloat16IsOrdered) {
  // All positive finite halves in bit order are strictly increasing, and
  // each negative one mirrors its positive twin.
  std::string data;
  for (uint32_t bits = 0; bits <= 0xffff; ++bits)
    data += littleEndian<uint16_t>({static_cast<uint16_t>(bits)});
  Array a = read(write("all.npy", npyFile(header("<f2", "(65536,)"), data)));
  ASSERT_EQ(a.data.size(), 65536u);
  for (uint32_t bits = 1; bits <= 0x7bff; ++bits)
    ASSERT_LT(a.data[bits - 1], a.data[bits]) << std::hex << bits;
  for (uint32_t bits = 0; bits < 0x7c00; ++bits)
    ASSERT_EQ(a.data[bits | 0x8000], -a.data[bits]) << std::hex << bits;
  for (uint32_t bits = 0x7c01; bits < 0x8000; ++bits)
    ASSERT_TRUE(std::isnan(a.data[bits]));
}

TEST_F(NpyTest, FormatVersions2And3) {
  for (int major : {2, 3}) {
    Array a =
        read(write("v.npy", npyFile(header("<f4", "(2,)"),
                                    littleEndian<float>({1.5f, -2}), major)));
    EXPECT_EQ(a.data, (std::vector<double>{1.5, -2})) << major;
  }
}

TEST_F(NpyTest, HeaderSpellings) {
  std::string two = littleEndian<float>({1, 2});
  for (const std::string &text : {
           // Double quotes, keys in another order, no trailing comma or
           // newline, no spaces.
           std::string("{\"shape\": (2,), \"fortran_order\": False, "
                       "\"descr\": \"<f4\"}"),
           std::string("{'descr':'<f4','fortran_order':False,'shape':(2,)}"),
           // Byte orders that mean little-endian here, and none at all.
           header("|f4", "(2,)"),
           header("=f4", "(2,)"),
           header("f4", "(2,)"),
           // Python 2 wrote long integers with an L.
           header("<f4", "(2L,)"),
           header("<f4", "(1, 2)"),
           // Tabs and carriage returns are whitespace too.
           std::string("{\t'descr' : '<f4' ,\r\n 'fortran_order' : False , "
                       "'shape' : ( 2 , ) , }  \n"),
       }) {
    Array a = read(write("s.npy", npyFile(text, two)));
    EXPECT_EQ(a.data, (std::vector<double>{1, 2})) << text;
    EXPECT_EQ(a.dtype, "float32") << text;
  }
}
