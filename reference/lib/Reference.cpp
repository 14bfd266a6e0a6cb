//===- Reference.cpp - A spec as plain float64 loops ----------------------===//
//
// One row at a time, straight from the formulas: no blocking, no fused
// passes, nothing in common with the generated kernels.
//
//===----------------------------------------------------------------------===//
#include "normc/Reference/Reference.h"

#include "CompensatedSum.h"
#include "ForwardRow.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

namespace normc::reference {
namespace detail {

void require(bool ok, const char *function, const std::string &what) {
  if (!ok)
    throw std::invalid_argument(std::string("normc::reference::") + function +
                                ": " + what);
}

void checkInputs(const dsl::Spec &spec, const Inputs &in,
                 const char *function) {
  auto check = [function](bool ok, const std::string &what) {
    require(ok, function, what);
  };
  check(in.rows >= 0 && in.d >= 0, "rows and d must be >= 0");
  if (in.rows == 0)
    return;
  check(in.d >= 1, "d must be >= 1 when rows > 0");
  check(in.x != nullptr, "x is required");
  check(in.xStride >= in.d, "xStride must be >= d");
  if (spec.residualAdd.value) {
    check(in.residual != nullptr, "residual is required by residual_add");
    check(in.residualStride >= in.d, "residualStride must be >= d");
  }
  check(!spec.gain.value || in.gamma != nullptr, "gamma is required by gain");
  check(!spec.bias.value || in.beta != nullptr, "beta is required by bias");
  check(spec.hasStatistics() || in.alpha != nullptr,
        "alpha is required by method tanh or erf");
  check(spec.method.value != dsl::Method::Erf || in.shift != nullptr,
        "shift is required by method erf");
  if (spec.gated()) {
    check(in.z != nullptr, "z is required by a gate");
    check(in.zStride >= in.d, "zStride must be >= d");
  }
}

void gateBefore(const dsl::Spec &spec, const Inputs &in, int64_t row,
                const double *h, double *normalized) {
  if (spec.gate.value != dsl::Gate::Before) {
    std::copy(h, h + in.d, normalized);
    return;
  }
  const double *z = in.z + row * in.zStride;
  for (int64_t i = 0; i < in.d; ++i)
    normalized[i] = h[i] * gateActivation(spec.gateActivation.value, z[i]);
}

void readRow(const dsl::Spec &spec, const Inputs &in, int64_t row, double *h) {
  const double *x = in.x + row * in.xStride;
  if (!spec.residualAdd.value) {
    for (int64_t i = 0; i < in.d; ++i)
      h[i] = x[i];
    return;
  }
  // x + r of two values of at most f32's precision is exact in double up
  // to one rounding, and rounding twice (double, then the residual type,
  // whose significand is at most half as wide) is innocuous, so this is the
  // correctly rounded sum.
  const double *r = in.residual + row * in.residualStride;
  for (int64_t i = 0; i < in.d; ++i)
    h[i] = roundTo(spec.residualType(), x[i] + r[i]);
}

static double squashed(const dsl::Spec &spec, const Inputs &in, double h) {
  return spec.method.value == dsl::Method::Erf ? *in.alpha * h + *in.shift
                                               : *in.alpha * h;
}

double squash(const dsl::Spec &spec, const Inputs &in, double h) {
  double u = squashed(spec, in, h);
  return spec.method.value == dsl::Method::Erf ? std::erf(u) : std::tanh(u);
}

double squashSlope(const dsl::Spec &spec, const Inputs &in, double h) {
  double u = squashed(spec, in, h);
  if (spec.method.value == dsl::Method::Erf)
    return 2 / std::sqrt(M_PI) * std::exp(-u * u);
  // 1 / cosh^2, not 1 - tanh^2, which is 0 in double once |u| passes 19.
  double c = std::cosh(u);
  return 1 / (c * c);
}

RowStats rowStats(const dsl::Spec &spec, const double *h, int64_t k) {
  RowStats st;
  if (!spec.hasStatistics())
    return st;
  st.divisor = spec.variance.value == dsl::Variance::Unbiased ? k - 1 : k;
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
  st.s = squares.value() / static_cast<double>(st.divisor);
  double eps = spec.epsilon.value;
  st.rstd = spec.placement.value == dsl::EpsilonPlacement::InsideSqrt
                ? 1 / std::sqrt(st.s + eps)
                : 1 / (std::sqrt(st.s) + eps);
  return st;
}

} // namespace detail

double gateActivation(dsl::GateActivation a, double v) {
  double sigmoid = 1 / (1 + std::exp(-v));
  return a == dsl::GateActivation::Silu ? v * sigmoid : sigmoid;
}

double gateActivationSlopeScale(dsl::GateActivation a, double v) {
  double sigmoid = 1 / (1 + std::exp(-v));
  double slope = sigmoid * (1 - sigmoid);
  return a == dsl::GateActivation::Silu ? sigmoid + std::fabs(v) * slope
                                        : slope;
}

double gateActivationSlope(dsl::GateActivation a, double v) {
  double sigmoid = 1 / (1 + std::exp(-v));
  double slope = sigmoid * (1 - sigmoid);
  return a == dsl::GateActivation::Silu ? sigmoid + v * slope : slope;
}

/// The largest change rounding to `type` makes to v when v is known only
/// to within `slack`: the distance to the other neighbour where v + -slack
/// straddles a midpoint (a kernel's f32 value may round either way).
static double roundingFlip(dsl::DType type, double v, double slack) {
  double n = roundTo(type, v), flip = 0;
  for (double other : {roundTo(type, v - slack), roundTo(type, v + slack)})
    flip = std::max(flip, std::fabs(other - n));
  return flip;
}

int64_t statisticsWidth(double fraction, int64_t d) {
  auto k = static_cast<int64_t>(std::floor(fraction * static_cast<double>(d)));
  return k < 1 ? 1 : k;
}

Outputs evaluate(const dsl::Spec &spec, const Inputs &in) {
  detail::checkInputs(spec, in, "evaluate");
  Outputs out;
  if (in.rows == 0)
    return out;
  const int64_t d = in.d;
  const bool residualAdd = spec.residualAdd.value;
  out.y.resize(in.rows * d);
  out.yConditioning.resize(in.rows * d);
  if (residualAdd)
    out.residualOut.resize(in.rows * d);
  if (spec.saveStats.value && spec.center.value)
    out.mean.resize(in.rows);
  if (spec.saveStats.value)
    out.rstd.resize(in.rows); // 1 for every row without scaling

  const int64_t k = statisticsWidth(spec.fraction.value, d);
  const bool gatedAfter = spec.gate.value == dsl::Gate::After ||
                          spec.gate.value == dsl::Gate::AfterRounded;
  std::vector<double> stored(d), h(d);
  for (int64_t row = 0; row < in.rows; ++row) {
    detail::readRow(spec, in, row, stored.data());
    if (residualAdd)
      for (int64_t i = 0; i < d; ++i)
        out.residualOut[row * d + i] = stored[i];
    detail::gateBefore(spec, in, row, stored.data(), h.data());

    detail::RowStats st = detail::rowStats(spec, h.data(), k);
    if (!out.mean.empty())
      out.mean[row] = st.mean;
    if (!out.rstd.empty())
      out.rstd[row] = st.rstd;

    const std::optional<dsl::DType> rounded = spec.normalizedType();
    for (int64_t i = 0; i < d; ++i) {
      const bool statistics = spec.hasStatistics();
      double v = statistics ? (h[i] - st.mean) * st.rstd
                            : detail::squash(spec, in, h[i]);
      const double g =
          spec.gain.value ? spec.gainOffset.value + in.gamma[i] : 1;
      // With statistics, the rounding of mu; without, that of alpha h in
      // f32 through tanh or erf, and of its shift.
      const double muRounding =
          statistics ? std::ldexp(1.0, -23) *
                           (std::fabs(h[i]) + std::fabs(st.mean)) * st.rstd
                     : std::ldexp(1.0, -23) *
                           (std::fabs(*in.alpha * h[i]) +
                            (in.shift ? std::fabs(*in.shift) : 0)) *
                           detail::squashSlope(spec, in, h[i]);
      double flip = 0;
      if (rounded) {
        // An f32 evaluation of n is off by a few of its ulps (and by the
        // rounding of mu): where that straddles a midpoint of the type n
        // is rounded to, it may round to the other neighbour (the fp8
        // promise of docs/fp8.md grants the same).
        flip = roundingFlip(*rounded, v,
                            std::ldexp(std::fabs(v), -20) + muRounding);
        v = roundTo(*rounded, v);
      }
      double conditioning = (muRounding + flip) * std::fabs(g);
      if (spec.gain.value)
        v *= g;
      if (spec.bias.value) {
        // n G + b in f32 rounds both; where they cancel, y keeps only
        // their absolute error.
        conditioning += std::ldexp(std::fabs(v) + std::fabs(in.beta[i]), -23);
        v += in.beta[i];
      }
      if (gatedAfter) {
        double act = gateActivation(spec.gateActivation.value,
                                    in.z[row * in.zStride + i]);
        if (spec.gate.value == dsl::Gate::AfterRounded) {
          conditioning +=
              roundingFlip(spec.output.value, v,
                           std::ldexp(std::fabs(v), -20) + conditioning);
          v = roundTo(spec.output.value, v);
        }
        conditioning *= std::fabs(act);
        v *= act;
      }
      out.yConditioning[row * d + i] = conditioning;
      out.y[row * d + i] = v;
    }
  }
  return out;
}

Quantization quantization(const dsl::Spec &spec, const Outputs &out,
                          int64_t rows, int64_t d, double staticScale) {
  if (!spec.quantized())
    throw std::invalid_argument("quantization: the output is not fp8");
  if (out.y.size() != static_cast<size_t>(rows * d))
    throw std::invalid_argument("quantization: y is not [rows, d]");
  Quantization q;
  q.group = spec.quantizeScale.value == dsl::QuantizeScale::Block
                ? static_cast<int64_t>(spec.quantizeBlock.value)
                : d;
  for (int64_t row = 0; row < rows; ++row)
    for (int64_t first = 0; first < d; first += q.group) {
      double amax = 0, conditioning = 0;
      for (int64_t i = first; i < std::min(d, first + q.group); ++i) {
        double m = std::fabs(out.y[row * d + i]);
        if (m > amax) // false for NaN
          amax = m;
        // The element an evaluation takes for the amax may be another
        // within its conditioning: the largest of them bounds either.
        if (!out.yConditioning.empty())
          conditioning = std::max(conditioning, out.yConditioning[row * d + i]);
      }
      q.amax.push_back(amax);
      q.scaleConditioning.push_back(
          spec.quantizeScale.value == dsl::QuantizeScale::Static
              ? 0.0
              : conditioning / dsl::largestFinite(spec.output.value));
      q.scale.push_back(
          spec.quantizeScale.value == dsl::QuantizeScale::Static ? staticScale
          : amax == 0                                            ? 1.0
                      : amax / dsl::largestFinite(spec.output.value));
    }
  return q;
}

double scaleErrorFraction(double got, double want, double conditioning) {
  double error = std::fabs(got - want);
  if (error == 0)
    return 0;
  double bound = std::ldexp(std::fabs(want), -16) + conditioning;
  return bound == 0 ? INFINITY : error / bound;
}

Fp8Count countFp8(dsl::DType format, const std::vector<double> &q,
                  const Outputs &ref, int64_t d,
                  const std::vector<double> &scales, double staticScale,
                  int64_t group) {
  if (d < 1)
    throw std::invalid_argument("countFp8: d must be at least 1");
  if (group <= 0 || group > d)
    group = d;
  const size_t groups = static_cast<size_t>((d + group - 1) / group);
  const size_t rows = q.size() / size_t(d);
  if (q.size() != ref.y.size() || rows * size_t(d) != q.size() ||
      (!scales.empty() && scales.size() != rows * groups))
    throw std::invalid_argument("countFp8: q, y and the scales disagree");
  Fp8Count count;
  for (size_t i = 0; i < q.size(); ++i) {
    size_t row = i / size_t(d), feature = i % size_t(d);
    double s = scales.empty() ? staticScale
                              : scales[row * groups + feature / size_t(group)];
    double scaled = ref.y[i] / s;
    ++count.values;
    count.exact += q[i] == roundTo(format, scaled) ||
                   (std::isnan(q[i]) && std::isnan(scaled));
    count.accepted +=
        fp8AcceptsWithin(format, q[i], ref.y[i], s, ref.yConditioning[i]);
  }
  return count;
}

} // namespace normc::reference
