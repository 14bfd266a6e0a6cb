//===- Gradient.cpp - The backward as plain float64 loops -----------------===//
//
// The derivative written out from the formulas of docs/spec.md, one row at a
// time, at the same forward values `evaluate` computes (ForwardRow.h).
//
//===----------------------------------------------------------------------===//
#include "normc/Reference/Gradient.h"

#include "CompensatedSum.h"
#include "ForwardRow.h"

#include <cmath>

namespace normc::reference {

using detail::CompensatedSum;

Gradients evaluateGradient(const dsl::Spec &spec, const GradientInputs &in) {
  const char *const function = "evaluateGradient";
  const Inputs &fwd = in.forward;
  detail::checkInputs(spec, fwd, function);
  if (fwd.rows > 0) {
    detail::require(in.dy != nullptr, function, "dy is required");
    detail::require(in.dyStride == 0 || in.dyStride >= fwd.d, function,
                    "dyStride must be 0 or >= d");
  }
  detail::require(in.dresidualOut == nullptr || spec.residualAdd.value,
                  function, "dresidualOut needs residual_add");

  const int64_t d = fwd.d;
  const bool statistics = spec.hasStatistics();
  const bool center = statistics && spec.center.value,
             scaled = statistics && spec.scale.value;
  const bool gain = spec.gain.value, bias = spec.bias.value;
  const bool inside = spec.placement.value == dsl::EpsilonPlacement::InsideSqrt;
  std::vector<CompensatedSum> dgamma(gain ? d : 0), dgammaScale(gain ? d : 0),
      dgammaConditioning(gain ? d : 0);
  std::vector<CompensatedSum> dbeta(bias ? d : 0), dbetaScale(bias ? d : 0);

  Gradients out;
  out.dx.resize(fwd.rows * d);
  out.dxScale.resize(fwd.rows * d);
  const int64_t k = statisticsWidth(spec.fraction.value, d);
  const int64_t dyStride = in.dyStride ? in.dyStride : d;
  const dsl::GateActivation activation = spec.gateActivation.value;
  const bool gatedBefore = spec.gate.value == dsl::Gate::Before;
  const bool gatedAfter = spec.gated() && !gatedBefore;
  if (spec.gated()) {
    out.dz.resize(fwd.rows * d);
    out.dzScale.resize(fwd.rows * d);
  }
  // n, dn/dh and (without statistics) dn/du of each feature of the row.
  std::vector<double> stored(d), h(d), g(d), dev(d), dyGated(d), n(d), dndh(d),
      slope(d);
  CompensatedSum dalpha, dalphaScale, dshift, dshiftScale;
  for (int64_t row = 0; row < fwd.rows; ++row) {
    detail::readRow(spec, fwd, row, stored.data());
    detail::gateBefore(spec, fwd, row, stored.data(), h.data());
    const detail::RowStats st = detail::rowStats(spec, h.data(), k);
    const double r = st.rstd;
    for (int64_t i = 0; i < d; ++i) {
      n[i] =
          statistics ? (h[i] - st.mean) * r : detail::squash(spec, fwd, h[i]);
      slope[i] = statistics ? 0 : detail::squashSlope(spec, fwd, h[i]);
      dndh[i] = statistics ? r : *fwd.alpha * slope[i];
    }
    const double *z = spec.gated() ? fwd.z + row * fwd.zStride : nullptr;
    // What reaches u = n G + b: dy, times act(z) with a gate after it.
    const double *dy = in.dy + row * dyStride;
    if (gatedAfter) {
      for (int64_t i = 0; i < d; ++i) {
        dyGated[i] = dy[i] * gateActivation(activation, z[i]);
        double u =
            (gain ? (spec.gainOffset.value + fwd.gamma[i]) * n[i] : n[i]) +
            (bias ? fwd.beta[i] : 0);
        double term = dy[i] * u * gateActivationSlope(activation, z[i]);
        out.dz[row * d + i] = term;
        out.dzScale[row * d + i] =
            std::fabs(dy[i] * u) * gateActivationSlopeScale(activation, z[i]);
      }
      dy = dyGated.data();
    }

    // The row's sums: sum g and sum |g| (for mu), sum g * dev and
    // sum |g * dev| (for r), sum dev over the first k (for s through mu).
    CompensatedSum sumG, sumAbsG, sumGDev, sumAbsGDev, sumDev;
    for (int64_t i = 0; i < d; ++i) {
      dev[i] = h[i] - st.mean;
      g[i] = gain ? dy[i] * (spec.gainOffset.value + fwd.gamma[i]) : dy[i];
      sumG.add(g[i]);
      sumAbsG.add(std::fabs(g[i]));
      sumGDev.add(g[i] * dev[i]);
      sumAbsGDev.add(std::fabs(g[i] * dev[i]));
      if (i < k)
        sumDev.add(dev[i]);
      if (!statistics) {
        // dL/du = g squash'(u); u = alpha h (+ shift).
        double du = g[i] * slope[i];
        dalpha.add(du * h[i]);
        dalphaScale.add(std::fabs(du * h[i]));
        dshift.add(du);
        dshiftScale.add(std::fabs(du));
      }
      if (gain) {
        double dyn = dy[i] * n[i];
        dgamma[i].add(dyn);
        dgammaScale[i].add(std::fabs(dyn));
        // The rounding of mu (of alpha h without statistics) in f32.
        double rounding = statistics
                              ? (std::fabs(h[i]) + std::fabs(st.mean)) * r
                              : std::fabs(*fwd.alpha * h[i]) * slope[i];
        dgammaConditioning[i].add(std::ldexp(1.0, -23) * std::fabs(dy[i]) *
                                  rounding);
      }
      if (bias) {
        dbeta[i].add(dy[i]);
        dbetaScale[i].add(std::fabs(dy[i]));
      }
    }

    // dL/ds through r = 1/sqrt(s + eps) or 1/(sqrt(s) + eps), and the
    // whole dL/dmu (through n directly and through s).
    const auto D = static_cast<double>(st.divisor);
    double drds = 0, ds = 0;
    if (scaled) {
      drds = inside ? -r * r * r / 2 : -r * r / (2 * std::sqrt(st.s));
      ds = sumGDev.value() * drds;
    }
    double dmu = 0;
    if (center) {
      dmu = -r * sumG.value();
      if (scaled)
        dmu += ds * (-2 / D) * sumDev.value();
    }

    const double *dh = in.dresidualOut ? in.dresidualOut + row * d : nullptr;
    const double kd = static_cast<double>(k);
    for (int64_t i = 0; i < d; ++i) {
      double v = g[i] * dndh[i];
      double m = std::fabs(g[i] * dndh[i]);
      // Past |u| of about 9 (erf) or 44 (tanh) dn/du is below f32's normal
      // range and an f32 evaluation's is off by up to 2^-126 of itself:
      // 2^-110 |g alpha| in M grants f32 that much.
      if (!statistics)
        m += std::ldexp(std::fabs(g[i] * *fwd.alpha), -110);
      if (i < k && scaled) {
        v += ds * 2 * dev[i] / D;
        m += std::fabs(drds) * 2 / D * std::fabs(dev[i]) * sumAbsGDev.value();
      }
      if (i < k && center) {
        v += dmu / kd;
        m += r / kd * sumAbsG.value();
      }
      if (gatedBefore) {
        // v is dh'; h' = h act(z).
        double slope = stored[i] * gateActivationSlope(activation, z[i]);
        out.dz[row * d + i] = v * slope;
        // Associated as dz, so that M is never below |dz|.
        out.dzScale[row * d + i] =
            m *
            (std::fabs(stored[i]) * gateActivationSlopeScale(activation, z[i]));
        double act = gateActivation(activation, z[i]);
        v *= act;
        m *= std::fabs(act);
      }
      if (dh) {
        v += dh[i];
        m += std::fabs(dh[i]);
      }
      out.dx[row * d + i] = v;
      out.dxScale[row * d + i] = m;
    }
  }

  auto values = [](const std::vector<CompensatedSum> &sums) {
    std::vector<double> v(sums.size());
    for (size_t i = 0; i < sums.size(); ++i)
      v[i] = sums[i].value();
    return v;
  };
  out.dgamma = values(dgamma);
  out.dgammaScale = values(dgammaScale);
  out.dgammaConditioning = values(dgammaConditioning);
  out.dbeta = values(dbeta);
  out.dbetaScale = values(dbetaScale);
  if (!statistics) {
    out.dalpha = {dalpha.value()};
    out.dalphaScale = {dalphaScale.value()};
  }
  if (spec.method.value == dsl::Method::Erf) {
    out.dshift = {dshift.value()};
    out.dshiftScale = {dshiftScale.value()};
  }
  return out;
}

} // namespace normc::reference
