//===- Gradient.h - An independent float64 evaluation of the backward ----===//
//
// Plain loops that compute the backward (docs/backward.md) in double:
// the exact derivative of docs/spec.md's steps 1 to 5, of the loss
//   L = sum(dy * y) + sum(dh * residual_out)
// where every rounding (of h, of n, of y) is treated as the identity, at
// the forward values the kernel reads (h is the stored, rounded
// round_input(x + r)). Tests hold the generated backward kernels to the
// promise of docs/numerics.md with `dxErrorFraction` and
// `paramGradErrorFraction`. Nothing here is shared with the compiler or the
// runtime.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_REFERENCE_GRADIENT_H
#define NORMC_REFERENCE_GRADIENT_H

#include "normc/Reference/Reference.h"

#include <cstdint>
#include <vector>

namespace normc::reference {

/// The forward's inputs and the gradients arriving at its outputs, already
/// rounded to their storage types (dy to the output type, dh to the input
/// type), held as doubles.
struct GradientInputs {
  Inputs forward;             // x, residual, gamma, beta, rows, d, strides
  const double *dy = nullptr; // [rows, d], row stride dyStride; required
  int64_t dyStride = 0;       // elements; 0 means d
  /// [rows, d] contiguous, optional, only with residual_add: the gradient
  /// arriving at residual_out (dresidual_out in docs/backward.md).
  const double *dresidualOut = nullptr;
};

/// The float64 gradients, contiguous, not rounded to any storage type, each
/// with the M of docs/numerics.md (the sum of the absolute values of the
/// terms that make up the value) that scales its tolerance.
struct Gradients {
  std::vector<double> dx;                  // [rows, d]: dL/dx (= dL/dresidual)
  std::vector<double> dxScale;             // [rows, d]
  std::vector<double> dgamma, dgammaScale; // [d], iff spec.gain
  /// [d], iff spec.gain: 2^-23 * sum over rows of |dy| (|h| + |mu|) r, the
  /// rounding of mu to the accumulate type that no f32 evaluation avoids,
  /// carried from the forward's bound of n to dgamma (the backward's bound in
  /// docs/numerics.md lacks it; where h is close to mu it dominates with few
  /// rows).
  std::vector<double> dgammaConditioning;
  std::vector<double> dbeta, dbetaScale; // [d], iff spec.bias
  /// [rows, d], iff spec.gated(): dL/dz, with the M of dx whose g is the
  /// gate's term, act'(z) counted by the absolute values of its terms
  /// (gateActivationSlopeScale).
  std::vector<double> dz, dzScale;
  /// [1], with method tanh or erf (dshift: erf only): sums over every
  /// element of dL/du * h and dL/du, u = alpha h (+ shift), with their M.
  std::vector<double> dalpha, dalphaScale, dshift, dshiftScale;
};

/// Evaluates the backward row by row in double. With r the row's rstd,
/// g = dy * G (G = gain_offset + gamma, 1 without a gain), dev = h - mu,
/// D = k (k - 1 when unbiased):
///   dr = sum_d g * dev, ds = dr * dr/ds (dr/ds = -r^3/2 inside the sqrt,
///   -r^2 / (2 sqrt(s)) outside), dmu = -r sum_d g + ds * (-2/D) sum_k dev,
///   dx[i] = g[i] r + [i < k] (ds * 2 dev[i] / D + dmu / k) + dh[i],
/// the ds terms only with scale and the dmu term only with center; dgamma
/// and dbeta are sums over rows of dy * n and dy. A gate (docs/spec.md,
/// "Gates"): after the statistics, y = u act(z) with u = n G + b, so dy act(z)
/// takes dy's place above and dz = dy u act'(z); before them, h' = h act(z)
/// takes h's place, the dx above is dh', dx = dh' act(z) (+ dh) and
/// dz = dh' h act'(z). Without statistics (Dynamic Tanh, Derf), n =
/// squash(u) with u = alpha h (+ shift): du = g squash'(u), dx = du alpha
/// (+ dh), dalpha = sum du h, dshift = sum du. Sums are compensated
/// (Neumaier). NaN and Inf propagate as in `evaluate`; with outside_sqrt
/// and s = 0 the derivative does not exist and the row gets whatever the
/// formula gives. rows = 0 gives empty dx and all-zero dgamma and dbeta.
/// Throws std::invalid_argument where `evaluate` would, and when dy is
/// null (rows > 0), dyStride is neither 0 nor >= d, or dresidualOut is
/// given to a spec without residual_add.
Gradients evaluateGradient(const dsl::Spec &spec, const GradientInputs &in);

/// How much of the promise |dx - ref| <= 2 tol (|ref| + M) a dx (or
/// dresidual) element uses, tol = tolerance(type) for the spec's output
/// type, scale = M. NaN and Inf as `errorFraction`; a zero bound gives 0
/// when v == ref and +inf otherwise.
double dxErrorFraction(double v, double ref, double scale, dsl::DType type);

/// How much of the promise |v - ref| <= 2 tol |ref| + 2^-16 M (+
/// `conditioning`, see Gradients::dgammaConditioning, + half the type's
/// smallest subnormal: the one rounding docs/backward.md describes, of a sum
/// below the normal range) a dgamma or dbeta element uses (scale = M). NaN and
/// Inf as `errorFraction`; a zero bound gives 0 when v == ref and +inf
/// otherwise.
double paramGradErrorFraction(double v, double ref, double scale,
                              dsl::DType type, double conditioning = 0);

/// The type whose tol the dgamma and dbeta bounds take: the coarser of the
/// params type and the type of the sums over rows (accumulate_rows).
dsl::DType paramGradType(const dsl::Spec &spec);

} // namespace normc::reference

#endif // NORMC_REFERENCE_GRADIENT_H
