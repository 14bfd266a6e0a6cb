//===- Fp8Test.cpp - Rounding doubles to E4M3FN and E5M2 ------------------===//
//
// Every code of each format against decoders built from the bits (written
// here, independently of the rounding under test): each value is a fixed
// point, every midpoint between neighbours goes to the even code, random
// values go where a search over all 256 codes puts them, and out-of-range
// values saturate as docs/fp8.md says.
//
//===----------------------------------------------------------------------===//
#include "normc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using namespace normc::reference;
using normc::dsl::DType;

namespace {

/// The value of an 8-bit code: 1 sign bit, `exponentBits`, the rest
/// fraction; an all-ones exponent is NaN for E4M3FN only with an all-ones
/// fraction, and Inf/NaN for E5M2.
double decode(DType format, uint8_t code) {
  int exponentBits = format == DType::F8E4M3 ? 4 : 5;
  int fractionBits = 7 - exponentBits, bias = format == DType::F8E4M3 ? 7 : 15;
  int exponent = (code >> fractionBits) & ((1 << exponentBits) - 1);
  int fraction = code & ((1 << fractionBits) - 1);
  double v;
  if (format == DType::F8E4M3 && exponent == 15 && fraction == 7)
    v = NAN;
  else if (format == DType::F8E5M2 && exponent == 31)
    v = fraction ? NAN : INFINITY;
  else if (exponent == 0)
    v = std::ldexp(fraction, 1 - bias - fractionBits);
  else
    v = std::ldexp((1 << fractionBits) + fraction,
                   exponent - bias - fractionBits);
  return (code & 0x80) ? -v : v;
}

/// The finite non-negative values and their codes, in increasing order.
std::vector<std::pair<double, int>> positiveValues(DType format) {
  std::vector<std::pair<double, int>> values;
  for (int code = 0; code < 0x80; ++code)
    if (std::isfinite(decode(format, code)))
      values.push_back({decode(format, code), code});
  std::sort(values.begin(), values.end());
  return values;
}

/// The nearest value by search: the closest of all codes, ties to the even
/// code, beyond the largest value that value.
double nearestBySearch(DType format, double v) {
  std::vector<std::pair<double, int>> values = positiveValues(format);
  double a = std::fabs(v), best = values.back().first;
  for (const auto &[value, code] : values) {
    double gap = std::fabs(value - a), bestGap = std::fabs(best - a);
    if (gap < bestGap || (gap == bestGap && code % 2 == 0))
      best = value;
  }
  return std::copysign(best, v);
}

class Fp8Rounding : public ::testing::TestWithParam<DType> {};

TEST_P(Fp8Rounding, LargestValue) {
  EXPECT_EQ(largestFinite(GetParam()),
            GetParam() == DType::F8E4M3 ? 448.0 : 57344.0);
  EXPECT_EQ(positiveValues(GetParam()).back().first, largestFinite(GetParam()));
}

TEST_P(Fp8Rounding, EveryCodeIsAFixedPoint) {
  DType format = GetParam();
  int finite = 0;
  for (int code = 0; code < 256; ++code) {
    double v = decode(format, code);
    if (std::isnan(v)) {
      EXPECT_TRUE(std::isnan(roundTo(format, v))) << code;
      continue;
    }
    if (std::isinf(v))
      continue; // E5M2's infinities saturate (below)
    ++finite;
    double r = roundTo(format, v);
    EXPECT_EQ(r, v) << "code " << code;
    EXPECT_EQ(std::signbit(r), std::signbit(v)) << "code " << code;
  }
  EXPECT_EQ(finite, format == DType::F8E4M3 ? 254 : 248);
}

TEST_P(Fp8Rounding, MidpointsGoToTheEvenCode) {
  DType format = GetParam();
  std::vector<std::pair<double, int>> values = positiveValues(format);
  for (size_t i = 0; i + 1 < values.size(); ++i) {
    auto [lo, loCode] = values[i];
    auto [hi, hiCode] = values[i + 1];
    double mid = (lo + hi) / 2, even = loCode % 2 == 0 ? lo : hi;
    EXPECT_EQ(roundTo(format, mid), even) << lo << " .. " << hi;
    EXPECT_EQ(roundTo(format, -mid), -even);
    EXPECT_EQ(roundTo(format, std::nextafter(mid, 0.0)), lo);
    EXPECT_EQ(roundTo(format, std::nextafter(mid, INFINITY)), hi);
  }
}

TEST_P(Fp8Rounding, SaturatesAndUnderflows) {
  DType format = GetParam();
  double max = largestFinite(format);
  for (double v : {max * (1 + 1.0 / 1024), max * 2, 1e30, double(INFINITY)}) {
    EXPECT_EQ(roundTo(format, v), max) << v;
    EXPECT_EQ(roundTo(format, -v), -max) << v;
  }
  double tiniest = positiveValues(format)[1].first;
  EXPECT_EQ(tiniest,
            format == DType::F8E4M3 ? std::ldexp(1, -9) : std::ldexp(1, -16));
  EXPECT_EQ(roundTo(format, tiniest / 2), 0.0); // a tie, 0 is even
  EXPECT_TRUE(std::signbit(roundTo(format, -tiniest / 2)));
  EXPECT_EQ(roundTo(format, std::nextafter(tiniest / 2, 1.0)), tiniest);
  EXPECT_EQ(roundTo(format, 1e-300), 0.0);
  EXPECT_TRUE(std::isnan(roundTo(format, NAN)));
}

TEST_P(Fp8Rounding, RandomValuesGoWhereASearchPutsThem) {
  DType format = GetParam();
  std::mt19937_64 rng(7);
  // Log-uniform over the whole range and beyond it, both signs.
  std::uniform_real_distribution<double> exponent(-20, 18);
  for (int i = 0; i < 20000; ++i) {
    double v = std::exp2(exponent(rng)) * (rng() % 2 ? 1 : -1);
    ASSERT_EQ(roundTo(format, v), nearestBySearch(format, v)) << v;
  }
}

TEST_P(Fp8Rounding, AcceptsEitherNeighbourOnlyNearAMidpoint) {
  DType format = GetParam();
  double lo = 1, hi = format == DType::F8E4M3 ? 1.125 : 1.25,
         mid = (lo + hi) / 2;
  EXPECT_TRUE(fp8Accepts(format, lo, lo));
  EXPECT_FALSE(fp8Accepts(format, hi, lo));
  // Within 2^-12 of the midpoint, either; a little further, the nearest.
  for (double off : {0.0, std::ldexp(mid, -13), -std::ldexp(mid, -13)}) {
    EXPECT_TRUE(fp8Accepts(format, lo, mid + off)) << off;
    EXPECT_TRUE(fp8Accepts(format, hi, mid + off)) << off;
  }
  EXPECT_TRUE(fp8Accepts(format, lo, mid - std::ldexp(mid, -11)));
  EXPECT_FALSE(fp8Accepts(format, hi, mid - std::ldexp(mid, -11)));
  // Not an fp8 value, or two codes away: never.
  EXPECT_FALSE(fp8Accepts(format, mid, mid));
  EXPECT_FALSE(fp8Accepts(format, hi + (hi - lo), mid));
  EXPECT_TRUE(fp8Accepts(format, NAN, NAN));
  EXPECT_FALSE(fp8Accepts(format, NAN, 1.0));
  EXPECT_FALSE(fp8Accepts(format, 1.0, NAN));
  EXPECT_TRUE(fp8Accepts(format, largestFinite(format), 1e9));
}

TEST_P(Fp8Rounding, AcceptsTheRoundingOfAnyYWithinItsConditioning) {
  const DType format = GetParam();
  // 1.5 and 1.625 (E4M3) or 1.5 and 1.75 (E5M2) are neighbours; 40% of the
  // way up rounds down, but a y within 20% of the gap (times s) may round up.
  const double s = 0.25, lo = 1.5, hi = format == DType::F8E4M3 ? 1.625 : 1.75;
  const double y = (lo + (hi - lo) * 0.4) * s;
  EXPECT_FALSE(fp8AcceptsWithin(format, hi, y, s, 0));
  EXPECT_TRUE(fp8AcceptsWithin(format, lo, y, s, 0));
  EXPECT_TRUE(fp8AcceptsWithin(format, hi, y, s, (hi - lo) * 0.2 * s));
  // Not two codes away, and not a value that is no rounding of the range.
  EXPECT_FALSE(
      fp8AcceptsWithin(format, hi + (hi - lo), y, s, (hi - lo) * 0.2 * s));
  EXPECT_FALSE(fp8AcceptsWithin(format, hi, y, s, (hi - lo) * 0.05 * s));
}

INSTANTIATE_TEST_SUITE_P(Formats, Fp8Rounding,
                         ::testing::Values(DType::F8E4M3, DType::F8E5M2),
                         [](const auto &info) {
                           return info.param == DType::F8E4M3 ? "E4M3" : "E5M2";
                         });

} // namespace
