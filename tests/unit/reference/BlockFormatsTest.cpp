//===- BlockFormatsTest.cpp - Rounding to E2M1, int8 and E8M0 -------------===//
//
// The formats of block-scaled and integer outputs, every code against
// decoders built from the bits here, independently of the rounding under
// test: E2M1 (OCP FP4: each code a fixed point, midpoints to the even code,
// random values where a search over the codes puts them, saturation, and
// NaN to the largest value as the GPU converts it), int8 (ties to even,
// clamped, NaN to 0) and E8M0 (every power of two a fixed point, values
// between them up or down, the range's ends).
//
//===----------------------------------------------------------------------===//
#include "normc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

using namespace normc::reference;
using normc::dsl::DType;

namespace {

/// An E2M1 code: a sign bit, 2 exponent bits (bias 1), 1 fraction bit; no
/// infinities or NaNs.
double e2m1Value(int code) {
  int exponent = (code >> 1) & 3, fraction = code & 1;
  double v = exponent == 0 ? fraction * 0.5
                           : std::ldexp(1 + fraction / 2.0, exponent - 1);
  return (code & 8) ? -v : v;
}

/// The non-negative E2M1 values with their codes, in increasing order.
std::vector<std::pair<double, int>> e2m1Positives() {
  std::vector<std::pair<double, int>> values;
  for (int code = 0; code < 8; ++code)
    values.push_back({e2m1Value(code), code});
  std::sort(values.begin(), values.end());
  return values;
}

TEST(E2M1Rounding, TheValuesAreTheOcpTable) {
  std::vector<double> values;
  for (auto [value, code] : e2m1Positives())
    values.push_back(value);
  EXPECT_EQ(values, (std::vector<double>{0, 0.5, 1, 1.5, 2, 3, 4, 6}));
  EXPECT_EQ(largestFinite(DType::F4E2M1), 6.0);
}

TEST(E2M1Rounding, EveryCodeIsAFixedPoint) {
  for (int code = 0; code < 16; ++code) {
    double v = e2m1Value(code);
    double r = roundTo(DType::F4E2M1, v);
    EXPECT_EQ(r, v) << "code " << code;
    EXPECT_EQ(std::signbit(r), std::signbit(v)) << "code " << code;
  }
}

TEST(E2M1Rounding, MidpointsGoToTheEvenCode) {
  std::vector<std::pair<double, int>> values = e2m1Positives();
  for (size_t i = 0; i + 1 < values.size(); ++i) {
    auto [lo, loCode] = values[i];
    auto [hi, hiCode] = values[i + 1];
    double mid = (lo + hi) / 2, even = loCode % 2 == 0 ? lo : hi;
    EXPECT_EQ(roundTo(DType::F4E2M1, mid), even) << lo << " .. " << hi;
    EXPECT_EQ(roundTo(DType::F4E2M1, -mid), -even);
    EXPECT_EQ(roundTo(DType::F4E2M1, std::nextafter(mid, 0.0)), lo);
    EXPECT_EQ(roundTo(DType::F4E2M1, std::nextafter(mid, INFINITY)), hi);
  }
}

TEST(E2M1Rounding, RandomValuesGoToTheNearestCode) {
  std::vector<std::pair<double, int>> values = e2m1Positives();
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> magnitude(0, 8);
  for (int i = 0; i < 20000; ++i) {
    double v = magnitude(rng) * (i % 2 ? -1 : 1);
    double best = values.back().first;
    for (auto [value, code] : values) {
      double gap = std::fabs(value - std::fabs(v)),
             bestGap = std::fabs(best - std::fabs(v));
      if (gap < bestGap || (gap == bestGap && code % 2 == 0))
        best = value;
    }
    ASSERT_EQ(roundTo(DType::F4E2M1, v), std::copysign(best, v)) << v;
  }
}

TEST(E2M1Rounding, SaturatesAndUnderflows) {
  for (double v : {6.0 * (1 + 1.0 / 1024), 7.0, 1e30, double(INFINITY)}) {
    EXPECT_EQ(roundTo(DType::F4E2M1, v), 6.0) << v;
    EXPECT_EQ(roundTo(DType::F4E2M1, -v), -6.0) << v;
  }
  EXPECT_EQ(roundTo(DType::F4E2M1, 0.25), 0.0); // a tie, 0 is even
  EXPECT_EQ(roundTo(DType::F4E2M1, std::nextafter(0.25, 1.0)), 0.5);
  EXPECT_TRUE(std::signbit(roundTo(DType::F4E2M1, -0.1)));
  // No NaN code: NaN saturates to the largest value, positive.
  EXPECT_EQ(roundTo(DType::F4E2M1, NAN), 6.0);
  EXPECT_EQ(roundTo(DType::F4E2M1, -NAN), 6.0);
}

TEST(Int8Rounding, EveryCodeIsAFixedPointAndTiesGoToEven) {
  EXPECT_EQ(largestFinite(DType::I8), 127.0);
  for (int q = -128; q <= 127; ++q) {
    ASSERT_EQ(roundTo(DType::I8, q), q);
    if (q == 127)
      continue;
    double mid = q + 0.5, even = q % 2 == 0 ? q : q + 1;
    ASSERT_EQ(roundTo(DType::I8, mid), even) << mid;
    ASSERT_EQ(roundTo(DType::I8, std::nextafter(mid, -200.0)), q) << mid;
    ASSERT_EQ(roundTo(DType::I8, std::nextafter(mid, 200.0)), q + 1) << mid;
  }
}

TEST(Int8Rounding, ClampsAndHasNoNaNOrNegativeZero) {
  for (double v : {127.5, 128.0, 1e30, double(INFINITY)}) {
    EXPECT_EQ(roundTo(DType::I8, v), 127.0) << v;
    EXPECT_EQ(roundTo(DType::I8, -v - 1), -128.0) << v;
  }
  EXPECT_EQ(roundTo(DType::I8, -128.5), -128.0);
  EXPECT_EQ(roundTo(DType::I8, NAN), 0.0);
  EXPECT_FALSE(std::signbit(roundTo(DType::I8, -0.3)));
  EXPECT_FALSE(std::signbit(roundTo(DType::I8, -0.0)));
}

TEST(E8M0Rounding, EveryCodeIsAFixedPointBothWays) {
  // Code c is 2^(c - 127); 255 is NaN.
  EXPECT_EQ(largestFinite(DType::F8E8M0), std::ldexp(1.0, 127));
  for (int code = 0; code < 255; ++code) {
    double v = std::ldexp(1.0, code - 127);
    ASSERT_EQ(roundToPowerOfTwo(DType::F8E8M0, v, true), v) << code;
    ASSERT_EQ(roundToPowerOfTwo(DType::F8E8M0, v, false), v) << code;
    if (code == 254)
      continue;
    // Strictly between 2^e and 2^(e+1): up or down.
    for (double inside :
         {std::nextafter(v, INFINITY), v * 1.5, std::nextafter(2 * v, 0.0)}) {
      ASSERT_EQ(roundToPowerOfTwo(DType::F8E8M0, inside, true), 2 * v)
          << inside;
      ASSERT_EQ(roundToPowerOfTwo(DType::F8E8M0, inside, false), v) << inside;
    }
  }
  EXPECT_TRUE(std::isnan(roundToPowerOfTwo(DType::F8E8M0, NAN, true)));
  EXPECT_THROW(roundTo(DType::F8E8M0, 1.0), std::invalid_argument);
}

TEST(E8M0Rounding, BeyondTheRangeGivesItsEnds) {
  double smallest = std::ldexp(1.0, -127), largest = std::ldexp(1.0, 127);
  for (bool up : {true, false}) {
    for (double v : {0.0, -1.0, std::ldexp(1.0, -200), smallest / 2})
      EXPECT_EQ(roundToPowerOfTwo(DType::F8E8M0, v, up), smallest) << v;
    for (double v : {largest * 1.5, std::ldexp(1.0, 300), double(INFINITY)})
      EXPECT_EQ(roundToPowerOfTwo(DType::F8E8M0, v, up), largest) << v;
  }
  // Just above the smallest rounds up to the next power only when asked.
  EXPECT_EQ(roundToPowerOfTwo(DType::F8E8M0, smallest * 1.25, true),
            2 * smallest);
  EXPECT_EQ(roundToPowerOfTwo(DType::F8E8M0, smallest * 1.25, false), smallest);
}

} // namespace
