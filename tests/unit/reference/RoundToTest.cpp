//===- RoundToTest.cpp - Rounding doubles to f32, f16 and bf16 ------------===//
//
// Every bf16 and f16 value must survive the round trip, every midpoint
// between neighbours must go to the even one, and overflow and underflow
// must happen exactly where IEEE 754 puts them. The decoders here build the
// values from their bits independently of the code under test.
//
//===----------------------------------------------------------------------===//
#include "normc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

using namespace normc::reference;
using normc::dsl::DType;

namespace {

/// bf16 is the top half of an f32.
double bf16Value(uint16_t bits) {
  uint32_t wide = uint32_t{bits} << 16;
  float f;
  std::memcpy(&f, &wide, sizeof f);
  return f;
}

double f16Value(uint16_t bits) {
  int exponent = (bits >> 10) & 0x1f, fraction = bits & 0x3ff;
  double v = exponent == 0x1f ? (fraction ? NAN : INFINITY)
             : exponent == 0  ? std::ldexp(fraction, -24)
                              : std::ldexp(1024 + fraction, exponent - 25);
  return (bits & 0x8000) ? -v : v;
}

/// Checks round trips and ties over every bit pattern of a 16-bit type.
/// `maxFinite` is the bit pattern of the largest finite value.
void checkAllPatterns(DType type, double (*value)(uint16_t),
                      uint16_t maxFinite) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    double v = value(static_cast<uint16_t>(bits));
    double r = roundTo(type, v);
    if (std::isnan(v)) {
      EXPECT_TRUE(std::isnan(r)) << std::hex << bits;
      continue;
    }
    ASSERT_EQ(r, v) << std::hex << bits;
    ASSERT_EQ(std::signbit(r), std::signbit(v)) << std::hex << bits;
  }
  // Between neighbours a < b (positive and negative), the midpoint goes to
  // the one with an even last bit, and anything off the midpoint goes to the
  // nearer one.
  for (uint32_t bits = 0; bits < maxFinite; ++bits) {
    for (uint32_t sign : {0x0000u, 0x8000u}) {
      double a = value(static_cast<uint16_t>(bits | sign));
      double b = value(static_cast<uint16_t>((bits + 1) | sign));
      double mid = (a + b) / 2; // exact in double
      ASSERT_EQ(roundTo(type, mid), bits % 2 == 0 ? a : b) << std::hex << bits;
      ASSERT_EQ(roundTo(type, std::nextafter(mid, a)), a) << std::hex << bits;
      ASSERT_EQ(roundTo(type, std::nextafter(mid, b)), b) << std::hex << bits;
    }
  }
}

} // namespace

TEST(ReferenceRoundTo, EveryBf16PatternAndMidpoint) {
  checkAllPatterns(DType::BF16, bf16Value, 0x7f7f);
}

TEST(ReferenceRoundTo, EveryF16PatternAndMidpoint) {
  checkAllPatterns(DType::F16, f16Value, 0x7bff);
}

TEST(ReferenceRoundTo, Bf16AndF16ValuesAreF32Values) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    auto pattern = static_cast<uint16_t>(bits);
    for (double v : {bf16Value(pattern), f16Value(pattern)}) {
      if (std::isnan(v))
        continue;
      ASSERT_EQ(roundTo(DType::F32, v), v) << std::hex << bits;
    }
  }
}

TEST(ReferenceRoundTo, F16Overflow) {
  // 65504 = (2 - 2^-10) * 2^15 is the largest f16; the next step would be
  // 65536, so the midpoint 65520 ties away from the odd 65504 to Inf.
  EXPECT_EQ(roundTo(DType::F16, 65519.99), 65504);
  EXPECT_EQ(roundTo(DType::F16, std::nextafter(65520.0, 0.0)), 65504);
  EXPECT_EQ(roundTo(DType::F16, 65520), INFINITY);
  EXPECT_EQ(roundTo(DType::F16, -65520), -INFINITY);
  EXPECT_EQ(roundTo(DType::F16, 1e300), INFINITY);
}

TEST(ReferenceRoundTo, Bf16AndF32Overflow) {
  // Largest values (2 - 2^-7) * 2^127 and (2 - 2^-23) * 2^127; the overflow
  // thresholds are half a step above: (2 - 2^-8) * 2^127, (2 - 2^-24) * 2^127.
  double bf16Max = std::ldexp(2 - std::ldexp(1.0, -7), 127);
  double bf16Edge = std::ldexp(2 - std::ldexp(1.0, -8), 127);
  EXPECT_EQ(roundTo(DType::BF16, bf16Max), bf16Max);
  EXPECT_EQ(roundTo(DType::BF16, std::nextafter(bf16Edge, 0.0)), bf16Max);
  EXPECT_EQ(roundTo(DType::BF16, bf16Edge), INFINITY);
  double f32Edge = std::ldexp(2 - std::ldexp(1.0, -24), 127);
  EXPECT_EQ(roundTo(DType::F32, std::nextafter(f32Edge, 0.0)), FLT_MAX);
  EXPECT_EQ(roundTo(DType::F32, f32Edge), INFINITY);
  EXPECT_EQ(roundTo(DType::F32, -f32Edge), -INFINITY);
}

TEST(ReferenceRoundTo, Underflow) {
  // Smallest subnormals: f16 2^-24, bf16 2^-133, f32 2^-149. Half of one
  // ties to even (0); anything above half rounds up to it.
  struct Case {
    DType type;
    int minExponent;
  };
  for (Case c : {Case{DType::F16, -24}, Case{DType::BF16, -133},
                 Case{DType::F32, -149}}) {
    double tiny = std::ldexp(1.0, c.minExponent);
    EXPECT_EQ(roundTo(c.type, tiny), tiny);
    EXPECT_EQ(roundTo(c.type, tiny / 2), 0);
    EXPECT_EQ(roundTo(c.type, std::nextafter(tiny / 2, 1.0)), tiny);
    EXPECT_EQ(roundTo(c.type, 1.5 * tiny), 2 * tiny); // tie, to even
    EXPECT_EQ(roundTo(c.type, 2.5 * tiny), 2 * tiny); // tie, to even
    double negativeZero = roundTo(c.type, -tiny / 4);
    EXPECT_EQ(negativeZero, 0);
    EXPECT_TRUE(std::signbit(negativeZero));
    // Subnormal doubles are far below every target's range.
    EXPECT_EQ(roundTo(c.type, DBL_TRUE_MIN), 0);
    EXPECT_TRUE(std::signbit(roundTo(c.type, -DBL_MIN / 2)));
  }
}

TEST(ReferenceRoundTo, F32MatchesTheHardwareConversion) {
  // Doubles over the whole f32 range, subnormals and overflow included.
  std::mt19937_64 rng(12345);
  std::uniform_int_distribution<int> exponent(-160, 130);
  std::uniform_real_distribution<double> significand(1.0, 2.0);
  for (int i = 0; i < 200000; ++i) {
    double v = std::ldexp(significand(rng), exponent(rng));
    if (i % 2)
      v = -v;
    ASSERT_EQ(roundTo(DType::F32, v),
              static_cast<double>(static_cast<float>(v)))
        << v;
  }
  // Ties next to 1: 1 + 2^-24 is halfway to 1 + 2^-23 and stays 1.
  EXPECT_EQ(roundTo(DType::F32, 1 + std::ldexp(1.0, -24)), 1);
  EXPECT_EQ(roundTo(DType::F32, 1 + 3 * std::ldexp(1.0, -24)),
            1 + std::ldexp(1.0, -22));
}

TEST(ReferenceRoundTo, SpecialValuesAndF64) {
  for (DType t : {DType::F32, DType::F16, DType::BF16, DType::F64}) {
    EXPECT_TRUE(std::isnan(roundTo(t, NAN)));
    EXPECT_EQ(roundTo(t, INFINITY), INFINITY);
    EXPECT_EQ(roundTo(t, -INFINITY), -INFINITY);
    EXPECT_EQ(roundTo(t, 0.0), 0);
    EXPECT_TRUE(std::signbit(roundTo(t, -0.0)));
  }
  EXPECT_EQ(roundTo(DType::F64, 0.1), 0.1);
  EXPECT_EQ(roundTo(DType::F64, DBL_TRUE_MIN), DBL_TRUE_MIN);
  EXPECT_EQ(roundTo(DType::BF16, 0.1), 0.10009765625);  // 0x3dcd
  EXPECT_EQ(roundTo(DType::F16, 0.1), 0.0999755859375); // 0x2e66
  EXPECT_EQ(roundTo(DType::F32, 0.1), 0.100000001490116119384765625);
}
