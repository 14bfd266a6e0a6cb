//===- NpyEncodeTest.cpp - float32 .npy files and reading them back -------===//
#include "NpyTestUtil.h"

#include <cfloat>
#include <cmath>
#include <vector>

using namespace normc::npy;
using namespace normc::npy::test;

TEST_F(NpyTest, EncodeFloat32Layout) {
  const float data[6] = {1, 2, 3, 4, 5, 6};
  std::string bytes = encodeFloat32({2, 3}, data);
  // Magic, version 1.0, a 2-byte header length, then the header as numpy
  // writes it: the dict, spaces up to a multiple of 64 bytes, a newline.
  std::string dict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  ASSERT_EQ(bytes.size(), 128u + 24);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_EQ(static_cast<unsigned char>(bytes[8]), 128 - 10);
  EXPECT_EQ(bytes[9], 0);
  EXPECT_EQ(bytes.substr(10, 118),
            dict + std::string(118 - dict.size() - 1, ' ') + "\n");
  EXPECT_EQ(bytes.substr(128), littleEndian<float>({1, 2, 3, 4, 5, 6}));
}

TEST_F(NpyTest, EncodeFloat32ShapeSpellings) {
  const float one = 7;
  auto headerOf = [](const std::string &bytes) {
    return bytes.substr(10, bytes.find('\n') - 10);
  };
  EXPECT_NE(headerOf(encodeFloat32({}, &one)).find("'shape': (), }"),
            std::string::npos);
  EXPECT_NE(headerOf(encodeFloat32({1}, &one)).find("'shape': (1,), }"),
            std::string::npos);
  EXPECT_NE(headerOf(encodeFloat32({0, 4}, nullptr)).find("'shape': (0, 4), }"),
            std::string::npos);
  for (const std::vector<int64_t> &shape :
       std::vector<std::vector<int64_t>>{{}, {1}, {0, 4}, {1, 1, 1}})
    EXPECT_EQ(encodeFloat32(shape, &one).find('\n') % 64, 63u);
}

TEST_F(NpyTest, EncodeFloat32RejectsNegativeDimensions) {
  EXPECT_THROW(encodeFloat32({2, -1}, nullptr), NpyError);
}

TEST_F(NpyTest, Float32RoundTrip) {
  const float data[8] = {0.1f,     -0.0f,    FLT_TRUE_MIN, FLT_MAX,
                         -FLT_MIN, INFINITY, NAN,          -3.5f};
  Array a = read(write("a.npy", encodeFloat32({4, 2}, data)));
  EXPECT_EQ(a.dtype, "float32");
  EXPECT_EQ(a.shape, (std::vector<int64_t>{4, 2}));
  ASSERT_EQ(a.data.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    if (std::isnan(data[i])) {
      EXPECT_TRUE(std::isnan(a.data[i]));
      continue;
    }
    EXPECT_EQ(a.data[i], static_cast<double>(data[i])) << i;
    EXPECT_EQ(std::signbit(a.data[i]), std::signbit(data[i])) << i;
  }
}

TEST_F(NpyTest, ZeroOneAndTwoDimensionalShapes) {
  const float data[3] = {4.25f, -1, 2};
  Array scalar = read(write("s.npy", encodeFloat32({}, data)));
  EXPECT_TRUE(scalar.shape.empty());
  EXPECT_EQ(scalar.data, std::vector<double>{4.25});

  Array vector = read(write("v.npy", encodeFloat32({3}, data)));
  EXPECT_EQ(vector.shape, std::vector<int64_t>{3});
  EXPECT_EQ(vector.data, (std::vector<double>{4.25, -1, 2}));

  for (const std::vector<int64_t> &shape :
       std::vector<std::vector<int64_t>>{{0, 4}, {3, 0}, {0}}) {
    Array empty = read(write("e.npy", encodeFloat32(shape, nullptr)));
    EXPECT_EQ(empty.shape, shape);
    EXPECT_TRUE(empty.data.empty());
    EXPECT_EQ(empty.dtype, "float32");
  }
}
