//===- Reference.cpp - Contract section 1 as plain float64 loops ----------===//
//
// One row at a time, straight from the formulas: no blocking, no fused
// passes, nothing in common with the generated kernels.
//
//===----------------------------------------------------------------------===//
#include "normc/Reference/Reference.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace normc::reference {
namespace {

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

void require(bool ok, const std::string &what) {
  if (!ok)
    throw std::invalid_argument("normc::reference::evaluate: " + what);
}

void checkInputs(const dsl::Spec &spec, const Inputs &in) {
  require(in.rows >= 0 && in.d >= 0, "rows and d must be >= 0");
  if (in.rows == 0)
    return;
  require(in.d >= 1, "d must be >= 1 when rows > 0");
  require(in.x != nullptr, "x is required");
  require(in.xStride >= in.d, "xStride must be >= d");
  if (spec.residualAdd.value) {
    require(in.residual != nullptr, "residual is required by residual_add");
    require(in.residualStride >= in.d, "residualStride must be >= d");
  }
  require(!spec.gain.value || in.gamma != nullptr, "gamma is required by gain");
  require(!spec.bias.value || in.beta != nullptr, "beta is required by bias");
}

/// The row's statistics from its first k features: mean (0 when not
/// centered) and r (1 when not scaled).
struct RowStats {
  double mean = 0;
  double rstd = 1;
};

RowStats rowStats(const dsl::Spec &spec, const double *h, int64_t k) {
  RowStats st;
  if (spec.center.value) {
    CompensatedSum sum;
    for (int64_t i = 0; i < k; ++i)
      sum.add(h[i]);
    st.mean = sum.value() / static_cast<double>(k);
  }
  if (!spec.scale.value)
    return st;
  CompensatedSum squares;
  for (int64_t i = 0; i < k; ++i)
    squares.add((h[i] - st.mean) * (h[i] - st.mean));
  int64_t divisor = spec.variance.value == dsl::Variance::Unbiased ? k - 1 : k;
  double s = squares.value() / static_cast<double>(divisor);
  double eps = spec.epsilon.value;
  st.rstd = spec.placement.value == dsl::EpsilonPlacement::InsideSqrt
                ? 1 / std::sqrt(s + eps)
                : 1 / (std::sqrt(s) + eps);
  return st;
}

} // namespace

int64_t statisticsWidth(double fraction, int64_t d) {
  auto k = static_cast<int64_t>(std::floor(fraction * static_cast<double>(d)));
  return k < 1 ? 1 : k;
}

Outputs evaluate(const dsl::Spec &spec, const Inputs &in) {
  checkInputs(spec, in);
  Outputs out;
  if (in.rows == 0)
    return out;
  const int64_t d = in.d;
  const bool residualAdd = spec.residualAdd.value;
  out.y.resize(in.rows * d);
  if (residualAdd)
    out.residualOut.resize(in.rows * d);
  if (spec.saveStats.value && spec.center.value)
    out.mean.resize(in.rows);
  if (spec.saveStats.value)
    out.rstd.resize(in.rows); // 1 for every row without scaling

  const int64_t k = statisticsWidth(spec.fraction.value, d);
  std::vector<double> h(d);
  for (int64_t row = 0; row < in.rows; ++row) {
    const double *x = in.x + row * in.xStride;
    for (int64_t i = 0; i < d; ++i)
      h[i] = x[i];
    if (residualAdd) {
      // x + r of two values of the input type is exact in double up to one
      // rounding, and rounding twice (double, then input type) is innocuous
      // here, so this is the correctly rounded sum.
      const double *r = in.residual + row * in.residualStride;
      for (int64_t i = 0; i < d; ++i) {
        h[i] = roundTo(spec.input.value, h[i] + r[i]);
        out.residualOut[row * d + i] = h[i];
      }
    }

    RowStats st = rowStats(spec, h.data(), k);
    if (!out.mean.empty())
      out.mean[row] = st.mean;
    if (!out.rstd.empty())
      out.rstd[row] = st.rstd;

    for (int64_t i = 0; i < d; ++i) {
      double v = (h[i] - st.mean) * st.rstd;
      if (spec.gain.value)
        v *= spec.gainOffset.value + in.gamma[i];
      if (spec.bias.value)
        v += in.beta[i];
      out.y[row * d + i] = v;
    }
  }
  return out;
}

} // namespace normc::reference
