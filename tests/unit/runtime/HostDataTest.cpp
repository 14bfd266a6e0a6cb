//===- HostDataTest.cpp - The host's element conversions ------------------===//
//
// What every host uses to fill and read buffers (normc::host::encode and
// decode): every code of E2M1, int8 and E8M0 decodes to the value the
// reference gives it and encodes back to itself, encoding rounds as the
// reference does, and packed E2M1 puts element 2j in the low nibble of
// byte j and 2j + 1 in the high one.
//
//===----------------------------------------------------------------------===//
#include "normc/Runtime/Host/HostData.h"
#include "normc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using namespace normc;
using dsl::DType;

namespace {

TEST(HostData, E2M1CodesArePackedTwoAByteLowNibbleFirst) {
  // Codes 0..15 in order: 0 0.5 1 1.5 2 3 4 6, then their negatives.
  const double values[] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  std::vector<double> all;
  for (int sign : {1, -1})
    for (double v : values)
      all.push_back(sign * v);
  std::vector<unsigned char> bytes = {0x10, 0x32, 0x54, 0x76,
                                      0x98, 0xba, 0xdc, 0xfe};
  std::vector<double> decoded = host::decode("f4e2m1", bytes.data(), 16);
  for (int code = 0; code < 16; ++code)
    EXPECT_EQ(decoded[code], all[code]) << "code " << code;
  // -0 (code 8) encodes as +0, as the toolkit's conversion gives; every
  // other code is its own value's encoding.
  all[8] = 0;
  bytes[4] = 0x90;
  EXPECT_EQ(host::encode("f4e2m1", all.data(), 16), bytes);
  // An odd count leaves the last high nibble 0.
  EXPECT_EQ(host::encode("f4e2m1", all.data() + 1, 3),
            (std::vector<unsigned char>{0x21, 0x03}));
  EXPECT_EQ(host::elementBytes("f4e2m1"), 1u);
}

TEST(HostData, EncodingRoundsAsTheReference) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> fp4Range(-8, 8), i8Range(-140, 140);
  std::vector<double> fp4, i8;
  for (int i = 0; i < 4000; ++i) {
    fp4.push_back(fp4Range(rng));
    i8.push_back(i8Range(rng));
  }
  fp4.insert(fp4.end(), {0.25, 0.75, 5.0, -5.0, 1e30, NAN});
  i8.insert(i8.end(), {0.5, 1.5, -2.5, 126.5, 127.5, -128.5, NAN});
  std::vector<double> got = host::decode(
      "f4e2m1", host::encode("f4e2m1", fp4.data(), fp4.size()).data(),
      fp4.size());
  for (size_t i = 0; i < fp4.size(); ++i)
    ASSERT_EQ(got[i], reference::roundTo(DType::F4E2M1, fp4[i])) << fp4[i];
  got = host::decode("i8", host::encode("i8", i8.data(), i8.size()).data(),
                     i8.size());
  for (size_t i = 0; i < i8.size(); ++i)
    ASSERT_EQ(got[i], reference::roundTo(DType::I8, i8[i])) << i8[i];
}

TEST(HostData, Int8AndE8M0CodesRoundTrip) {
  for (int code = 0; code < 256; ++code) {
    unsigned char byte = static_cast<unsigned char>(code);
    double i8 = host::decode("i8", &byte, 1)[0];
    EXPECT_EQ(i8, static_cast<int8_t>(byte));
    EXPECT_EQ(host::encode("i8", &i8, 1), std::vector<unsigned char>{byte});
    double scale = host::decode("f8e8m0", &byte, 1)[0];
    if (code == 255) {
      EXPECT_TRUE(std::isnan(scale));
      continue;
    }
    EXPECT_EQ(scale, std::ldexp(1.0, code - 127)) << code;
    EXPECT_EQ(host::encode("f8e8m0", &scale, 1),
              std::vector<unsigned char>{byte});
  }
}

} // namespace
