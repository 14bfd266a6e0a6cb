//===- NumericsUtil.h - Run a spec on the CPU device and grade it ---------===//
//
// Inputs are drawn from a seeded generator and rounded to the spec's storage
// types; the generated kernel (through the CPU device) and the independent
// float64 reference see the same values. Grades are worst errors as a
// fraction of the bound of docs/numerics.md (<= 1 keeps the promise).
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_TESTS_NUMERICS_NUMERICSUTIL_H
#define NORMC_TESTS_NUMERICS_NUMERICSUTIL_H

#include "normc/Dsl/Spec.h"
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Reference/Gradient.h"
#include "normc/Runtime/Jit/SpecRunner.h"

#include <functional>
#include <string>
#include <vector>

namespace normc::test {

/// The shipped specs, and the d x rows matrix (with rotating lane orders)
/// that the forward and the gradient suites run them over.
inline constexpr const char *kShippedSpecs[] = {"layernorm",
                                                "llama_rmsnorm",
                                                "gemma_rmsnorm",
                                                "prmsnorm",
                                                "t5_layernorm",
                                                "fused_add_rmsnorm",
                                                "partial_layernorm",
                                                "mamba2_gated_rmsnorm",
                                                "qwen3_next_gated_rmsnorm",
                                                "dyt",
                                                "derf"};
inline constexpr int64_t kSuiteD[] = {1,    7,    64,    127,  1000,
                                      4096, 4097, 12288, 65536};
inline constexpr int64_t kSuiteRows[] = {0, 1, 3, 257};
inline constexpr cpu::LaneOrder kLaneOrders[] = {
    cpu::LaneOrder::Forward, cpu::LaneOrder::Reverse, cpu::LaneOrder::Random,
    cpu::LaneOrder::RunAhead};

/// A sweep's cases split in two: those `representative` picks run by
/// default (instantiate them as `Default/...`), the rest only under
/// scripts/test.sh --full (instantiate them as `Sweep/...`: ctest labels
/// every test whose name starts with `Sweep` `full`).
template <class T, class Pick>
std::vector<T> casesWhere(const std::vector<T> &all, Pick representative,
                          bool wanted) {
  std::vector<T> picked;
  for (size_t i = 0; i < all.size(); ++i)
    if (representative(i, all[i]) == wanted)
      picked.push_back(all[i]);
  return picked;
}

/// Instantiates the parameterized SUITE over the cases ALL (a vector) as
/// Default/... (those REPRESENTATIVE picks) and Sweep/... (the rest), their
/// names given by NAME.
#define NORMC_INSTANTIATE_SWEEP(SUITE, ALL, REPRESENTATIVE, NAME)              \
  INSTANTIATE_TEST_SUITE_P(Default, SUITE,                                     \
                           ::testing::ValuesIn(::normc::test::casesWhere(      \
                               ALL, REPRESENTATIVE, true)),                    \
                           NAME);                                              \
  INSTANTIATE_TEST_SUITE_P(Sweep, SUITE,                                       \
                           ::testing::ValuesIn(::normc::test::casesWhere(      \
                               ALL, REPRESENTATIVE, false)),                   \
                           NAME)

/// A shipped spec by name (specs/NAME.toml).
dsl::Spec loadShippedSpec(const std::string &name);

/// Rounded inputs of one case, row strides included.
struct CaseData {
  int64_t rows = 0, d = 0, xStride = 0;
  std::vector<double> x, residual, z, gamma, beta;
  std::vector<double> alpha, shift; // [1], Dynamic Tanh's and Derf's
  std::vector<double> staticScale;  // [1], for an fp8 output's static scale
};

/// x, residual ~ N(0, scale), a gate's z ~ N(0, 2), gamma ~ N(1, 0.1),
/// beta ~ N(0, 0.1), alpha ~ N(0.5, 0.1), shift ~ N(0, 0.1), rounded to
/// the spec's types; rows of x, residual and z
/// are `xStride` apart. A static
/// fp8 scale is 2^-6 (a few values of E4M3 saturate).
CaseData makeCase(const dsl::Spec &spec, int64_t rows, int64_t d, uint64_t seed,
                  double scale = 1.0, int64_t xStride = 0);

/// How the bounds apply to a spec. docs/numerics.md promises them for f32
/// (and f64) accumulation. f16 and bf16 accumulation (legal, warned about) are
/// held to the same bounds in their own precision: no tolerance finer than
/// the accumulate type's, the terms for f32's rounding (of mu, 2^-16 M)
/// scaled by the ratio of unit roundoffs, and all of it by the depth of a
/// reduction, log2(d) + 2.
struct Leeway {
  std::optional<dsl::DType> coarsest; // the accumulate type, when coarser
  double roundoffRatio = 1, depth = 1;
  dsl::DType type(dsl::DType t) const;
};
Leeway leewayOf(const dsl::Spec &spec, int64_t d);

/// Worst error fraction per output (y, residual_out, mean, rstd). For an
/// fp8 output (docs/fp8.md), y is 0 when every value is accepted and
/// +inf otherwise, `scale` grades the scales (2^-16 relatively) or the amax
/// (as f32), and the counts say how many values are the reference's own
/// rounding of y_ref / s.
struct Grade {
  double y = 0, residualOut = 0, mean = 0, rstd = 0, scale = 0;
  size_t fp8Values = 0, fp8Exact = 0, fp8Wrong = 0;
  double worst() const;
  std::string str() const;
};

/// The kernel's view of `data` (pointers into it).
RunInputs inputsOf(const CaseData &data);

/// Grades a kernel's outputs on `data` against the reference evaluation of
/// `spec`; a NaN where the reference has none (an output never written)
/// grades +inf.
Grade grade(const dsl::Spec &spec, const CaseData &data, const RunOutputs &got);

/// Runs the kernel of `compiled` (default: `spec`) on `data` and grades it
/// against the reference evaluation of `spec`.
Grade runAndGrade(const dsl::Spec &spec, const CaseData &data,
                  const RunOptions &options, RunOutputs *outputs = nullptr,
                  const dsl::Spec *compiled = nullptr);

/// The worst grade of runAndGrade over every lane order (kLaneOrders, seed
/// 3), with `options` otherwise as given and the CPU device's compile
/// options; a launch error counts as +inf. For hand-broken kernels
/// (`options.mutateSource`).
double worstOverLaneOrders(const dsl::Spec &spec, const CaseData &data,
                           RunOptions options);

/// What a backward reads besides the forward's inputs: dy (output type),
/// the gradient at residual_out (input type, with residual_add, when
/// asked for) and saved statistics (from the forward kernel, when asked
/// for).
struct GradientCase {
  std::vector<double> dy, dresidualOut, mean, rstd;
};
/// dy, dresidualOut ~ N(0, 1) rounded; with `savedStats`, the statistics
/// come from running the forward (with save_stats) on `data`.
GradientCase makeGradientCase(const dsl::Spec &spec, const CaseData &data,
                              const Program &program, uint64_t seed);

/// The backward's view of `data` and `grad`.
RunInputs inputsOf(const CaseData &data, const GradientCase &grad);

/// The float64 gradient of `data` and `grad`.
reference::Gradients referenceGradient(const dsl::Spec &spec,
                                       const CaseData &data,
                                       const GradientCase &grad);

/// Worst error fraction per gradient (docs/numerics.md).
struct GradientGrade {
  double dx = 0, dresidual = 0, dgamma = 0, dbeta = 0, dz = 0, dalpha = 0,
         dshift = 0;
  double worst() const;
  std::string str() const;
};
GradientGrade gradeGradient(const dsl::Spec &spec, const CaseData &data,
                            const GradientCase &grad, const RunOutputs &got);

/// Kernels for the CPU device are compiled with these extra flags
/// (sanitizers when the test binary is sanitized).
cpu::CompileOptions kernelCompileOptions();

/// Every schedule candidate of a compilation (for any target: unknown,
/// sm_80 and sm_90), emitted into one source
/// (candidate i's kernels named after `name` and i) and compiled once for
/// the CPU device; a candidate that does not emit is a test failure.
struct CandidateKernels {
  std::vector<Schedule> schedules;
  std::vector<std::vector<KernelLaunchInfo>> kernels; // in launch order
  cpu::CpuModule module;
};
CandidateKernels compileCandidates(const SpecCompilation &compilation,
                                   const std::string &name);

/// Runs every forward candidate on `data` (on the CPU device, lanes in a
/// random order) and expects each to keep the bound; returns how many ran.
/// A candidate whose shared memory does not fit is skipped, which only a
/// kernel with d at run time may need (`specialized`: d is fixed).
int expectEveryCandidateKeepsTheBound(const dsl::Spec &spec,
                                      const CandidateKernels &candidates,
                                      const CaseData &data, bool specialized);

/// Whether candidate i can be launched at d: with d at run time, a
/// shared-memory row may not fit, which the launch refuses, and so does
/// the tuner.
inline bool fitsShared(const CandidateKernels &c, size_t i, int64_t d) {
  return c.kernels[i].front().dynamicSharedBytes(d) <= kMaxSharedBytes;
}

} // namespace normc::test

#endif // NORMC_TESTS_NUMERICS_NUMERICSUTIL_H
