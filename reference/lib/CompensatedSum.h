//===- CompensatedSum.h - Neumaier summation for the reference -----------===//
//
// Private to the reference library: the forward and the gradient both sum
// with it.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_REFERENCE_LIB_COMPENSATEDSUM_H
#define NORMC_REFERENCE_LIB_COMPENSATEDSUM_H

#include <cmath>

namespace normc::reference::detail {

/// Neumaier's compensated summation: the error does not grow with the
/// number of terms, so long rows do not eat into the tolerance.
class CompensatedSum {
public:
  void add(double v) {
    double t = sum + v;
    if (std::fabs(sum) >= std::fabs(v))
      compensation += (sum - t) + v;
    else
      compensation += (v - t) + sum;
    sum = t;
  }
  /// Once the sum is Inf or NaN the compensation is meaningless (Inf - Inf),
  /// and the plain sum is what the formula gives.
  double value() const { return std::isfinite(sum) ? sum + compensation : sum; }

private:
  double sum = 0;
  double compensation = 0;
};

} // namespace normc::reference::detail

#endif // NORMC_REFERENCE_LIB_COMPENSATEDSUM_H
