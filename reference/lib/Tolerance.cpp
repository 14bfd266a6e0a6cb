//===- Tolerance.cpp - The numerical promises of docs/numerics.md ---------===//
#include "normc/Reference/Gradient.h"
#include "normc/Reference/Reference.h"

#include <algorithm>
#include <cmath>

namespace normc::reference {
namespace {

/// |v - ref| / bound, where a NaN ref needs a NaN v, an infinite ref needs
/// v equal to it (0 when so, +inf when not), and a finite ref a finite v. A
/// zero bound admits only v == ref.
double fractionOfBound(double v, double ref, double bound) {
  if (std::isnan(ref))
    return std::isnan(v) ? 0.0 : INFINITY;
  if (std::isinf(ref))
    return v == ref ? 0.0 : INFINITY;
  if (!std::isfinite(v))
    return INFINITY;
  double error = std::fabs(v - ref);
  if (bound == 0)
    return error == 0 ? 0.0 : INFINITY;
  return error / bound;
}

} // namespace

double tolerance(dsl::DType outputType) {
  // One ulp at 1, 2^-(fraction bits), for the 16-bit types (and fp8, whose
  // values are held to fp8Accepts instead: docs/fp8.md); f32 and f64 get
  // 2^-17, room for the f32 arithmetic every kernel does.
  return std::ldexp(1.0, -std::min(outputType.elementType().mantissaBits, 17));
}

double errorFraction(double y, double ref, dsl::DType type,
                     double conditioning) {
  return fractionOfBound(
      y, ref, 2 * tolerance(type) * (std::fabs(ref) + 1) + conditioning);
}

double dxErrorFraction(double v, double ref, double scale, dsl::DType type) {
  return fractionOfBound(v, ref,
                         2 * tolerance(type) * (std::fabs(ref) + scale));
}

double paramGradErrorFraction(double v, double ref, double scale,
                              dsl::DType type, double conditioning) {
  // Half the smallest subnormal: the rounding of a sum whose magnitude is
  // below the normal range, which no bound relative to it can hold.
  return fractionOfBound(v, ref,
                         2 * tolerance(type) * std::fabs(ref) +
                             std::ldexp(1.0, -16) * scale + conditioning +
                             dsl::smallestSubnormal(type) / 2);
}

dsl::DType paramGradType(const dsl::Spec &spec) {
  dsl::DType rows = spec.rowsAccumulate();
  return tolerance(rows) > tolerance(spec.params.value) ? rows
                                                        : spec.params.value;
}

} // namespace normc::reference
