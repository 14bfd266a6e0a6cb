//===- Rounding.cpp - Round a double to a storage type, ties to even ------===//
//
// Works on the bits of the double rather than on casts to float or CUDA's
// half types, so the reference does not share its rounding with the code it
// checks. Every finite double is significand * 2^(exponent - 52) with a
// 53-bit significand; rounding keeps the bits at or above the target's
// quantum at that exponent and rounds the rest to nearest, ties to even.
//
//===----------------------------------------------------------------------===//
#include "normc/Reference/Reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace normc::reference {
namespace {

/// A binary floating-point storage format.
struct Format {
  int fractionBits; // explicitly stored significand bits
  int minExponent;  // exponent of the smallest normal number
  int maxExponent;  // exponent of the largest finite number
};

Format formatOf(dsl::DType type) {
  switch (type) {
  case dsl::DType::F16:
    return {10, -14, 15};
  case dsl::DType::BF16:
    return {7, -126, 127};
  default: // f32, f64; roundTo sends fp8 to roundToFp8
    break;
  }
  return {23, -126, 127};
}

/// Rounds a positive, normal double to `f`; may return a value above the
/// format's largest finite number, which the caller turns into Inf.
double roundMagnitude(uint64_t bits, const Format &f) {
  int exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  uint64_t significand =
      (uint64_t{1} << 52) | (bits & ((uint64_t{1} << 52) - 1));
  // Weight of the last kept bit; below the normal range it stays that of
  // the subnormals.
  int quantumExponent = std::max(exponent, f.minExponent) - f.fractionBits;
  int shift = quantumExponent - (exponent - 52); // > 0 for every target
  uint64_t kept = 0;
  // From shift 54 on, the value is below half a quantum and rounds to 0.
  if (shift <= 53) {
    kept = significand >> shift;
    uint64_t rest = significand & ((uint64_t{1} << shift) - 1);
    uint64_t half = uint64_t{1} << (shift - 1);
    if (rest > half || (rest == half && (kept & 1)))
      ++kept;
  }
  // kept has at most fractionBits + 2 bits, so this is exact.
  return std::ldexp(static_cast<double>(kept), quantumExponent);
}

/// Rounds a finite, nonzero v to `f`; a magnitude above `maxFinite` becomes
/// `overflow`.
double roundFinite(double v, const Format &f, double maxFinite,
                   double overflow) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  bool negative = bits >> 63;
  double magnitude = 0;
  // Subnormal doubles (biased exponent 0) lie far below half the smallest
  // subnormal of every target and round to zero.
  if (((bits >> 52) & 0x7ff) != 0) {
    magnitude = roundMagnitude(bits, f);
    if (magnitude > maxFinite)
      magnitude = overflow;
  }
  return negative ? -magnitude : magnitude;
}

double largestOf(const Format &f) {
  return std::ldexp(2.0 - std::ldexp(1.0, -f.fractionBits), f.maxExponent);
}

Format formatOf(Fp8 format) {
  return format == Fp8::E4M3 ? Format{3, -6, 8} : Format{2, -14, 15};
}

} // namespace

std::optional<Fp8> fp8Of(dsl::DType type) {
  if (type == dsl::DType::F8E4M3)
    return Fp8::E4M3;
  if (type == dsl::DType::F8E5M2)
    return Fp8::E5M2;
  return std::nullopt;
}

double roundTo(dsl::DType type, double v) {
  if (std::optional<Fp8> fp8 = fp8Of(type))
    return roundToFp8(*fp8, v);
  if (type == dsl::DType::F64 || !std::isfinite(v) || v == 0)
    return v;
  Format f = formatOf(type);
  return roundFinite(v, f, largestOf(f), INFINITY);
}

double fp8Max(Fp8 format) {
  // E4M3FN spends its top code (exponent and fraction all ones) on NaN, so
  // its largest value is one quantum below the IEEE-style largest.
  Format f = formatOf(format);
  return format == Fp8::E4M3
             ? largestOf(f) - std::ldexp(1.0, f.maxExponent - f.fractionBits)
             : largestOf(f);
}

double roundToFp8(Fp8 format, double v) {
  if (std::isnan(v) || v == 0)
    return v;
  double max = fp8Max(format);
  if (std::isinf(v))
    return v > 0 ? max : -max;
  return roundFinite(v, formatOf(format), max, max);
}

bool fp8Accepts(Fp8 format, double q, double scaled) {
  double nearest = roundToFp8(format, scaled);
  if (std::isnan(nearest) || std::isnan(q))
    return std::isnan(nearest) && std::isnan(q);
  if (q == nearest)
    return true;
  // The other neighbour of a midpoint: 2^-12 is far below half a quantum
  // (2^-5 relatively at least), so q near enough is adjacent to `nearest`.
  double midpoint = (q + nearest) / 2;
  return roundToFp8(format, q) == q &&
         std::fabs(scaled - midpoint) <= std::ldexp(std::fabs(midpoint), -12);
}

bool fp8AcceptsWithin(Fp8 format, double q, double yRef, double s,
                      double conditioning) {
  if (fp8Accepts(format, q, yRef / s))
    return true;
  // Rounding is monotone: the roundings of the interval lie between those
  // of its ends.
  double a = roundToFp8(format, (yRef - conditioning) / s);
  double b = roundToFp8(format, (yRef + conditioning) / s);
  return std::min(a, b) <= q && q <= std::max(a, b);
}

} // namespace normc::reference
