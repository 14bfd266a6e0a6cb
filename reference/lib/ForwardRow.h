//===- ForwardRow.h - Pieces of the forward the gradient reuses ----------===//
//
// Private to the reference library. The gradient differentiates exactly the
// forward that `evaluate` computes, so both read their inputs, form h and
// compute a row's statistics through these functions (Reference.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_REFERENCE_LIB_FORWARDROW_H
#define NORMC_REFERENCE_LIB_FORWARDROW_H

#include "normc/Reference/Reference.h"

#include <cstdint>
#include <string>

namespace normc::reference::detail {

/// Throws std::invalid_argument("normc::reference::<function>: <what>")
/// unless ok.
void require(bool ok, const char *function, const std::string &what);

/// The checks `evaluate` documents, reported as coming from `function`.
void checkInputs(const dsl::Spec &spec, const Inputs &in, const char *function);

/// Step 1 of a spec's math (docs/spec.md): h[0:d] of one row, x or
/// round_residual(x + residual), in the residual stream's type.
void readRow(const dsl::Spec &spec, const Inputs &in, int64_t row, double *h);

/// What the statistics and n read: h, or with gate = "before" h * act(z)
/// (docs/spec.md, "Gates").
void gateBefore(const dsl::Spec &spec, const Inputs &in, int64_t row,
                const double *h, double *normalized);

/// n of Dynamic Tanh or Derf (docs/spec.md): tanh(alpha h) or
/// erf(alpha h + shift), and its derivative dn/du at u = alpha h (+ shift).
double squash(const dsl::Spec &spec, const Inputs &in, double h);
double squashSlope(const dsl::Spec &spec, const Inputs &in, double h);

/// A row's statistics from its first k features (steps 2 to 4); none (mean
/// 0, r 1) without statistics.
struct RowStats {
  double mean = 0;     // 0 when not centered
  double s = 0;        // the (centered) second moment; 0 without scale
  double rstd = 1;     // r; 1 without scale
  int64_t divisor = 1; // D: k, or k - 1 when unbiased
};

RowStats rowStats(const dsl::Spec &spec, const double *h, int64_t k);

} // namespace normc::reference::detail

#endif // NORMC_REFERENCE_LIB_FORWARDROW_H
