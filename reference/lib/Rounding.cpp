//===- Rounding.cpp - Round a double to a storage type, ties to even ------===//
//
// Works on the bits of the double rather than on casts to float or CUDA's
// half types, so the reference does not share its rounding with the code it
// checks; the format (its fraction bits, exponent range, largest value and
// what overflow gives) is the element-type table's. Every finite double is
// significand * 2^(exponent - 52) with a 53-bit significand; rounding keeps the
// bits at or above the target's quantum at that exponent and rounds the rest to
// nearest, ties to even.
//
//===----------------------------------------------------------------------===//
#include "normc/Reference/Reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace normc::reference {
namespace {

/// Where a binary floating-point format's values lie, from its row of the
/// element-type table.
struct Format {
  int fractionBits; // explicitly stored significand bits
  int minExponent;  // exponent of the smallest normal number
};

Format formatOf(const ElementType &type) {
  return {type.mantissaBits, 2 - (1 << (type.exponentBits - 1))};
}

/// Rounds a positive, normal double to `f`; may return a value above the
/// format's largest finite number, which the caller handles.
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

/// The nearest integer to v, ties to even, within the type's range.
double roundToInteger(const ElementType &type, double v) {
  if (std::isnan(v))
    return 0;
  double max = type.largestFinite(), min = -max - 1;
  // nearbyint rounds in the default mode, ties to even; + 0.0 makes -0 0.
  return std::clamp(std::nearbyint(v), min, max) + 0.0;
}

} // namespace

double roundTo(dsl::DType dtype, double v) {
  const ElementType &type = dtype.elementType();
  if (type.encoding == ElementType::Encoding::Integer)
    return roundToInteger(type, v);
  if (type.encoding != ElementType::Encoding::Float)
    throw std::invalid_argument("roundTo: " + std::string(type.name) +
                                " holds powers of two; round to it with "
                                "roundToPowerOfTwo");
  double max = type.largestFinite();
  // A format without a NaN code saturates it to its largest value, as the
  // GPU's conversion to E2M1 does.
  if (std::isnan(v) && type.specials == ElementType::Specials::None)
    return max;
  if (type.bits == 64 || std::isnan(v) || v == 0)
    return v;
  bool saturates = type.overflow == ElementType::Overflow::Saturate;
  if (std::isinf(v))
    return saturates ? std::copysign(max, v) : v;
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  double magnitude = 0;
  // Subnormal doubles (biased exponent 0) lie far below half the smallest
  // subnormal of every target and round to zero.
  if (((bits >> 52) & 0x7ff) != 0) {
    magnitude = roundMagnitude(bits, formatOf(type));
    if (magnitude > max)
      magnitude = saturates ? max : INFINITY;
  }
  return std::copysign(magnitude, v);
}

double roundToPowerOfTwo(dsl::DType dtype, double v, bool up) {
  const ElementType &type = dtype.elementType();
  if (type.encoding != ElementType::Encoding::Exponent)
    throw std::invalid_argument("roundToPowerOfTwo: " + std::string(type.name) +
                                " is not a power-of-two format");
  if (std::isnan(v))
    return v;
  double smallest = type.smallestPositive(), largest = type.largestFinite();
  if (!(v > smallest))
    return smallest;
  if (v >= largest)
    return largest;
  int exponent;
  double fraction = std::frexp(v, &exponent); // v = fraction * 2^exponent
  // fraction is in [0.5, 1): v is 2^(exponent - 1) exactly at 0.5.
  if (fraction == 0.5 || !up)
    --exponent;
  return std::ldexp(1.0, exponent);
}

bool fp8Accepts(dsl::DType format, double q, double scaled) {
  double nearest = roundTo(format, scaled);
  if (std::isnan(nearest) || std::isnan(q))
    return std::isnan(nearest) && std::isnan(q);
  if (q == nearest)
    return true;
  // The other neighbour of a midpoint: 2^-12 is far below half a quantum
  // (2^-5 relatively at least), so q near enough is adjacent to `nearest`.
  double midpoint = (q + nearest) / 2;
  return roundTo(format, q) == q &&
         std::fabs(scaled - midpoint) <= std::ldexp(std::fabs(midpoint), -12);
}

bool fp8AcceptsWithin(dsl::DType format, double q, double yRef, double s,
                      double conditioning) {
  if (fp8Accepts(format, q, yRef / s))
    return true;
  // Rounding is monotone: the roundings of the interval lie between those
  // of its ends.
  double a = roundTo(format, (yRef - conditioning) / s);
  double b = roundTo(format, (yRef + conditioning) / s);
  return std::min(a, b) <= q && q <= std::max(a, b);
}

} // namespace normc::reference
