//===- EvaluateEdgeCasesTest.cpp - Shapes, strides and non-finite values --===//
#include "ReferenceTestUtil.h"

#include <cmath>
#include <limits>
#include <stdexcept>

using namespace normc::reference;
using namespace normc::reference::test;
namespace dsl = normc::dsl;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

const char *const kEveryOutput = R"(
[statistics]
center = true
[affine]
bias = true
[fusion]
residual_add = true
save_stats = true
)";

} // namespace

TEST(ReferenceEdgeCases, ZeroRowsGiveEmptyOutputs) {
  Inputs in; // no pointers at all
  in.d = 8;
  Outputs out = evaluate(makeSpec(kEveryOutput), in);
  EXPECT_TRUE(out.y.empty());
  EXPECT_TRUE(out.residualOut.empty());
  EXPECT_TRUE(out.mean.empty());
  EXPECT_TRUE(out.rstd.empty());
}

TEST(ReferenceEdgeCases, RowStridesLargerThanD) {
  // Two rows of d = 2 inside rows of 3 (x) and 5 (residual) elements; the
  // padding is NaN and must never be read.
  std::vector<double> x = {1, 3, kNaN, 2, 6, kNaN};
  std::vector<double> r = {0, 4, kNaN, kNaN, kNaN, -1, 1, kNaN, kNaN, kNaN};
  std::vector<double> gamma = {1, 2}, beta = {0, 1};
  Inputs in;
  in.x = x.data();
  in.residual = r.data();
  in.gamma = gamma.data();
  in.beta = beta.data();
  in.rows = 2;
  in.d = 2;
  in.xStride = 3;
  in.residualStride = 5;
  dsl::Spec spec = makeSpec(kEveryOutput);
  Outputs strided = evaluate(spec, in);
  // The same rows, contiguous: h = [1, 7] and [1, 7].
  Outputs dense =
      evaluateRows(spec, {{1, 3, 2, 6}, {0, 4, -1, 1}, gamma, beta, 2});
  EXPECT_EQ(strided.residualOut, (std::vector<double>{1, 7, 1, 7}));
  EXPECT_EQ(strided.y, dense.y);
  EXPECT_EQ(strided.mean, (std::vector<double>{4, 4}));
  EXPECT_EQ(strided.rstd, dense.rstd);
  for (double v : strided.y)
    EXPECT_TRUE(std::isfinite(v));
}

TEST(ReferenceEdgeCases, MissingOrInconsistentInputsThrow) {
  std::vector<double> x = {1, 2, 3, 4};
  dsl::Spec spec = makeSpec(kEveryOutput); // needs residual, gamma, beta
  Inputs in;
  in.x = x.data();
  in.residual = x.data();
  in.gamma = x.data();
  in.beta = x.data();
  in.rows = 2;
  in.d = 2;
  in.xStride = 2;
  in.residualStride = 2;
  EXPECT_NO_THROW(evaluate(spec, in));
  for (const double *Inputs::*operand :
       {&Inputs::x, &Inputs::residual, &Inputs::gamma, &Inputs::beta}) {
    Inputs missing = in;
    missing.*operand = nullptr;
    EXPECT_THROW(evaluate(spec, missing), std::invalid_argument);
  }
  Inputs narrow = in;
  narrow.xStride = 1;
  EXPECT_THROW(evaluate(spec, narrow), std::invalid_argument);
  narrow = in;
  narrow.residualStride = 1;
  EXPECT_THROW(evaluate(spec, narrow), std::invalid_argument);
  Inputs empty = in;
  empty.d = 0;
  EXPECT_THROW(evaluate(spec, empty), std::invalid_argument);
  Inputs negative = in;
  negative.rows = -1;
  EXPECT_THROW(evaluate(spec, negative), std::invalid_argument);
  // Operands the spec does not use may be null.
  Inputs rmsOnly;
  rmsOnly.x = x.data();
  rmsOnly.rows = 1;
  rmsOnly.d = 4;
  rmsOnly.xStride = 4;
  EXPECT_NO_THROW(evaluate(makeSpec(kRmsNorm), rmsOnly));
}

TEST(ReferenceEdgeCases, UnbiasedWithOneFeatureDividesZeroByZero) {
  // k = 1: mu = h0, the only deviation is 0, s = 0 / (1 - 1) = NaN, as
  // torch.var(unbiased=True) gives for one element.
  dsl::Spec spec = makeSpec(R"(
[statistics]
center = true
variance = "unbiased"
[affine]
gain = false
[fusion]
save_stats = true
)");
  Outputs out = evaluateRows(spec, {{5}, {}, {}, {}, 1});
  EXPECT_EQ(out.mean[0], 5);
  EXPECT_TRUE(std::isnan(out.rstd[0]));
  EXPECT_TRUE(std::isnan(out.y[0]));
}

TEST(ReferenceEdgeCases, SingleFeatureLayerNorm) {
  // d = 1: s = 0, r = 1/sqrt(1e-5), y = 0 * r = 0.
  dsl::Spec spec = makeSpec("[statistics]\ncenter = true\n[affine]\n"
                            "gain = false\n[fusion]\nsave_stats = true\n");
  Outputs out = evaluateRows(spec, {{-3.5}, {}, {}, {}, 1});
  EXPECT_EQ(out.y[0], 0);
  EXPECT_EQ(out.mean[0], -3.5);
  EXPECT_DOUBLE_EQ(out.rstd[0], 1 / std::sqrt(1e-5));
}

TEST(ReferenceEdgeCases, NonFiniteValuesStayInTheirRow) {
  // Row 1 has a NaN: its statistics and every output are NaN.
  // Row 2 has +Inf: mean square Inf, r = 0, y = Inf * 0 = NaN, 1 * 0 = 0
  //        (what plain f32 arithmetic gives too).
  // Row 3, [1, 7]: 0.2, 1.4.
  Outputs out = evaluateRows(makeSpec(kRmsNorm),
                             {{1, kNaN, INFINITY, 1, 1, 7}, {}, {}, {}, 2});
  EXPECT_TRUE(std::isnan(out.y[0]));
  EXPECT_TRUE(std::isnan(out.y[1]));
  EXPECT_TRUE(std::isnan(out.rstd[0]));
  EXPECT_TRUE(std::isnan(out.y[2]));
  EXPECT_EQ(out.y[3], 0);
  EXPECT_EQ(out.rstd[1], 0);
  expectValues({out.y[4], out.y[5]}, {0.2, 1.4});
}

TEST(ReferenceEdgeCases, SumsAreCompensated) {
  // [2^60, 1, -2^60, 1] (all f32 values): the exact sum is 2 and the mean
  // 0.5. Summed plainly in double, 2^60 + 1 rounds back to 2^60 and the
  // mean comes out 0.25.
  double big = std::ldexp(1.0, 60);
  dsl::Spec spec = makeSpec("[statistics]\ncenter = true\n[affine]\n"
                            "gain = false\n[fusion]\nsave_stats = true\n");
  Outputs out = evaluateRows(spec, {{big, 1, -big, 1}, {}, {}, {}, 4});
  EXPECT_EQ(out.mean[0], 0.5);
}
