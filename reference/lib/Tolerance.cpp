//===- Tolerance.cpp - The numerical promise of contract section 4 --------===//
#include "normc/Reference/Reference.h"

#include <cmath>

namespace normc::reference {

double tolerance(dsl::DType outputType) {
  switch (outputType) {
  case dsl::DType::BF16:
    return std::ldexp(1.0, -7);
  case dsl::DType::F16:
    return std::ldexp(1.0, -10);
  case dsl::DType::F32:
  case dsl::DType::F64:
    break;
  }
  return std::ldexp(1.0, -17);
}

double errorFraction(double y, double ref, dsl::DType type) {
  if (std::isnan(ref))
    return std::isnan(y) ? 0.0 : INFINITY;
  if (std::isinf(ref))
    return y == ref ? 0.0 : INFINITY;
  if (!std::isfinite(y))
    return INFINITY;
  return std::fabs(y - ref) / (2 * tolerance(type) * (std::fabs(ref) + 1));
}

} // namespace normc::reference
