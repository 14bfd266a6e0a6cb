//===- Reference.h - An independent float64 evaluation of a spec ---------===//
//
// Plain loops that compute what docs/spec.md says a spec computes, in
// double, from inputs already rounded to the spec's storage types. Tests hold
// the generated kernels to the numerical promise of docs/numerics.md with
// `errorFraction`. Nothing here is shared with the compiler or the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_REFERENCE_REFERENCE_H
#define NORMC_REFERENCE_REFERENCE_H

#include "normc/Dsl/Spec.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace normc::reference {

/// Inputs, already rounded to the spec's storage types, held as doubles.
struct Inputs {
  const double *x = nullptr;        // [rows, d], row stride xStride (elements)
  const double *residual = nullptr; // [rows, d], row stride residualStride;
                                    // required iff spec.residualAdd
  const double *gamma = nullptr;    // [d], required iff spec.gain
  const double *beta = nullptr;     // [d], required iff spec.bias
  const double *z = nullptr;        // [rows, d], row stride zStride;
                                    // required iff spec.gated()
  const double *alpha = nullptr;    // [1], required with method tanh or erf
  const double *shift = nullptr;    // [1], required with method erf
  int64_t rows = 0, d = 0, xStride = 0, residualStride = 0, zStride = 0;
};

/// A gate's act(v) (docs/spec.md, "Gates"): v / (1 + exp(-v)) or
/// 1 / (1 + exp(-v)), and its derivative.
double gateActivation(dsl::GateActivation a, double v);
double gateActivationSlope(dsl::GateActivation a, double v);
/// The sum of the absolute values of the derivative's terms: silu's
/// sigmoid(v) + v sigmoid'(v) cancels near its minimum (v about -1.28),
/// where no f32 evaluation keeps its relative precision; the M of dz
/// (docs/backward.md) takes this in its place.
double gateActivationSlopeScale(dsl::GateActivation a, double v);

/// The float64 evaluation, contiguous, not rounded to any output type.
struct Outputs {
  std::vector<double> y;           // [rows, d]
  std::vector<double> residualOut; // [rows, d], iff residualAdd
  std::vector<double> mean;        // [rows], iff saveStats && center
  std::vector<double> rstd;        // [rows], iff saveStats (1 without scale)
  /// [rows, d]: the second term of the bound for y (docs/numerics.md),
  /// 2^-23 (|h[i]| + |mu|) r |G[i]|, the rounding of mu to f32 that no f32
  /// evaluation avoids (errorFraction's `conditioning`), and with a bias
  /// 2^-23 (|n G| + |b|), that of n G + b; with
  /// affine.normalized rounding n, plus |G[i]| times the distance to the
  /// other neighbour where n lies within an f32 evaluation's error of a
  /// midpoint of the type it is rounded to (and likewise for the y that
  /// gate = "after_rounded" rounds before gating it), all of it times
  /// |act(z)| with a gate after the statistics.
  std::vector<double> yConditioning;
};

/// Evaluates a spec (docs/spec.md) row by row in double. Sums are compensated
/// (Neumaier), so they are accurate to a few double roundings for any d.
/// Follows the formulas literally: NaN and Inf propagate within their row,
/// and `variance = "unbiased"` with k = 1 divides 0 by 0 (NaN statistics).
/// rows = 0 gives empty outputs. Throws std::invalid_argument when a required
/// pointer is null, rows or d is negative, d is 0 with rows > 0, or a row
/// stride is less than d.
Outputs evaluate(const dsl::Spec &spec, const Inputs &in);

/// k = max(1, floor(fraction * d)): how many leading features of a row feed
/// the statistics (fraction * d computed in double).
int64_t statisticsWidth(double fraction, int64_t d);

/// tol of docs/numerics.md for an output type: 2^-7 for bf16, 2^-10 for
/// f16, 2^-17 for f32 (and for f64, which is not an output type of a spec).
double tolerance(dsl::DType outputType);

/// How much of the promise |y - ref| <= 2 * tol * (|ref| + 1) + conditioning
/// an output uses: |y - ref| / (2 * tol * (|ref| + 1) + conditioning); at
/// most 1 passes. For y, `conditioning` is Outputs::yConditioning. When ref is
/// NaN, y must be NaN; when ref is +-Inf, y must equal it (0 when so, +inf when
/// not). A NaN or Inf y against a finite ref gives +inf.
double errorFraction(double y, double ref, dsl::DType type,
                     double conditioning = 0);

/// Rounds v to the nearest value of an element type, ties to even, and
/// returns it as a double: overflow gives +-Inf, or the largest finite value
/// for a type whose conversions saturate (fp8, fp4, int8, infinities too:
/// the table's `overflow`); tiny values become subnormals or signed zero,
/// NaN stays NaN where the type has a NaN code; where it has none, NaN is
/// what the GPU's saturating conversions give: the largest value of a float
/// format (E2M1), 0 in an integer type. F64 is the identity. A power-of-two
/// type (E8M0) takes roundToPowerOfTwo instead.
double roundTo(dsl::DType type, double v);

/// v in a power-of-two type (E8M0, a block scale): the least power of two
/// at or above v (`up`), or the greatest at or below it, within the type's
/// range: what lies beyond it gives the nearest end, 0 and negative values
/// the smallest, +Inf the largest; NaN stays NaN.
double roundToPowerOfTwo(dsl::DType type, double v, bool up);

/// Whether the fp8 promise (docs/fp8.md) accepts q for `scaled` =
/// y_ref / s, for an fp8 `format`: q is roundTo(format, scaled), or
/// `scaled` lies within 2^-12 (relatively) of the midpoint between q and
/// that value.
bool fp8Accepts(dsl::DType format, double q, double scaled);

/// fp8Accepts(format, q, yRef / s), where y_ref is known only up to
/// `conditioning` (Outputs::yConditioning: the roundings of mu and of
/// affine.normalized's n that no f32 evaluation avoids); q may then also
/// be the rounding of any value within it, divided by s.
bool fp8AcceptsWithin(dsl::DType format, double q, double yRef, double s,
                      double conditioning);

/// The fp8 scaling (docs/fp8.md) per row (or per row and block) of a
/// quantized spec, from evaluate's y: the amax (the largest |y[i]| of the row
/// or block, NaN ignored, 0 for none) and the scale (amax / the largest finite
/// fp8 value, 1 when amax is 0; with scale = "static", `staticScale` for every
/// row).
struct Quantization {
  /// Features an amax and a scale cover: d, or `block` with scale = "block"
  /// (the last block of a row may be shorter).
  int64_t group = 0;
  std::vector<double> amax;  // [rows, ceil(d / group)]
  std::vector<double> scale; // [rows, ceil(d / group)]
  /// [rows, ceil(d / group)]: how far an f32 evaluation's scale may stray
  /// beyond the scale's bound, from the roundings of the amax's y that none
  /// avoids (Outputs::yConditioning of that element, over the largest fp8
  /// value).
  std::vector<double> scaleConditioning;
};
Quantization quantization(const dsl::Spec &spec, const Outputs &out,
                          int64_t rows, int64_t d, double staticScale = 1);

/// How much of the fp8 bound on a scale (docs/fp8.md: 2^-16 of the float64
/// scale, relatively, plus `conditioning`, Quantization::scaleConditioning)
/// `got` uses; at most 1 passes.
double scaleErrorFraction(double got, double want, double conditioning = 0);

/// The fp8 promise (docs/fp8.md) over an fp8 output: q [rows, d] against
/// ref.y / s, s the kernel's own `scales` [rows, ceil(d / group)] (per row
/// when group is 0 or d; or `staticScale` for every row when `scales` is
/// empty). `exact`: q is the reference's rounding; `accepted`:
/// fp8AcceptsWithin (exact ones included).
struct Fp8Count {
  size_t values = 0, exact = 0, accepted = 0;
};
Fp8Count countFp8(dsl::DType format, const std::vector<double> &q,
                  const Outputs &ref, int64_t d,
                  const std::vector<double> &scales, double staticScale = 1,
                  int64_t group = 0);

} // namespace normc::reference

#endif // NORMC_REFERENCE_REFERENCE_H
