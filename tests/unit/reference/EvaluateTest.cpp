//===- EvaluateTest.cpp - The reference on hand-computed rows -------------===//
//
// One small case per spec feature, with the expected values worked out by
// hand in the comments. Epsilon is 0 unless the case is about epsilon, so
// the numbers stay exact or simple closed forms.
//
//===----------------------------------------------------------------------===//
#include "ReferenceTestUtil.h"

#include <cmath>

using namespace normc::reference;
using namespace normc::reference::test;
namespace dsl = normc::dsl;

namespace {

const char *const kLayerNorm = R"(
[statistics]
center = true
[epsilon]
value = 0
[affine]
gain = false
[fusion]
save_stats = true
)";

} // namespace

TEST(ReferenceEvaluate, LayerNorm) {
  // Row 1, [1, 2, 3, 4]: mu = 2.5, deviations -1.5 -0.5 0.5 1.5, squares
  // 2.25 + 0.25 + 0.25 + 2.25 = 5, s = 5/4, r = 1/sqrt(5/4) = 2/sqrt(5),
  // y = deviation * r = -3/sqrt(5), -1/sqrt(5), 1/sqrt(5), 3/sqrt(5).
  // Row 2, [0, 0, 4, 4]: mu = 2, s = (4 + 4 + 4 + 4)/4 = 4, r = 1/2,
  // y = -1, -1, 1, 1 exactly.
  Outputs out = evaluateRows(makeSpec(kLayerNorm),
                             {{1, 2, 3, 4, 0, 0, 4, 4}, {}, {}, {}, 4});
  double s5 = std::sqrt(5.0);
  expectValues(out.y, {-3 / s5, -1 / s5, 1 / s5, 3 / s5, -1, -1, 1, 1});
  EXPECT_EQ(out.y[4], -1);
  EXPECT_EQ(out.y[7], 1);
  expectValues(out.mean, {2.5, 2});
  expectValues(out.rstd, {2 / s5, 0.5});
  EXPECT_TRUE(out.residualOut.empty());
}

TEST(ReferenceEvaluate, DefaultEpsilonIsInsideTheSqrt) {
  // [0, 0, 4, 4]: s = 4, r = 1/sqrt(4 + 1e-5), y = -2r, -2r, 2r, 2r.
  Outputs out = evaluateRows(makeSpec("[statistics]\ncenter = true\n"
                                      "[affine]\ngain = false\n"),
                             {{0, 0, 4, 4}, {}, {}, {}, 4});
  double r = 1 / std::sqrt(4 + 1e-5);
  expectValues(out.y, {-2 * r, -2 * r, 2 * r, 2 * r});
  EXPECT_TRUE(out.mean.empty());
  EXPECT_TRUE(out.rstd.empty());
}

TEST(ReferenceEvaluate, RmsNorm) {
  // [1, 7]: mean square (1 + 49)/2 = 25, r = 1/5, y = 0.2, 1.4. No mean
  // output without centering.
  Outputs out = evaluateRows(makeSpec(kRmsNorm), {{1, 7}, {}, {}, {}, 2});
  expectValues(out.y, {0.2, 1.4});
  EXPECT_TRUE(out.mean.empty());
  expectValues(out.rstd, {0.2});
}

TEST(ReferenceEvaluate, GainAndBias) {
  // [1, 7] normalizes to 0.2, 1.4 (above); times gamma [2, 0.5] gives
  // 0.4, 0.7; plus beta [1, -1] gives 1.4, -0.3.
  dsl::Spec spec = makeSpec(R"(
[statistics]
center = false
[epsilon]
value = 0
[affine]
bias = true
)");
  Outputs out = evaluateRows(spec, {{1, 7}, {}, {2, 0.5}, {1, -1}, 2});
  expectValues(out.y, {1.4, -0.3});
}

TEST(ReferenceEvaluate, GainOffset) {
  // [2, -2, 2, -2]: mean square 4, r = 1/2, normalized 1, -1, 1, -1; with
  // gain_offset 1 and gamma [0, 1, -1, 0.5] the factors are 1, 2, 0, 1.5:
  // y = 1, -2, 0, -1.5.
  dsl::Spec spec = makeSpec(R"(
[statistics]
center = false
[epsilon]
value = 0
[affine]
gain_offset = 1.0
)");
  Outputs out =
      evaluateRows(spec, {{2, -2, 2, -2}, {}, {0, 1, -1, 0.5}, {}, 4});
  expectValues(out.y, {1, -2, 0, -1.5});
}

TEST(ReferenceEvaluate, GateBeforeNormalizesTheGatedRow) {
  // z = [0, 0]: silu(0) = 0, sigmoid(0) = 1/2. With sigmoid, h' = x / 2 =
  // [0.5, 3.5], whose RMSNorm is that of [1, 7] (above): 0.2, 1.4. With
  // silu, z = [ln 3, 0]: silu(ln 3) = ln 3 * 3/4, so h' = [0.75 ln 3, 0],
  // mean square (0.75 ln 3)^2 / 2, y = sqrt(2), 0.
  dsl::Spec sigmoid = makeSpec(R"(
[statistics]
center = false
[epsilon]
value = 0
[affine]
gain = false
[fusion]
gate = "before"
gate_activation = "sigmoid"
)");
  Rows rows{{1, 7}, {}, {}, {}, 2, {0, 0}};
  expectValues(evaluateRows(sigmoid, rows).y, {0.2, 1.4});
  dsl::Spec silu = sigmoid;
  silu.gateActivation.value = dsl::GateActivation::Silu;
  rows.z = {std::log(3.0), 0};
  expectValues(evaluateRows(silu, rows).y, {std::sqrt(2.0), 0});
}

TEST(ReferenceEvaluate, GateAfterMultipliesY) {
  // [1, 7] normalizes to 0.2, 1.4; times gamma [2, 0.5] and plus beta
  // [1, -1]: 1.4, -0.3 (above). Gated after by sigmoid of [0, ln 3] (1/2,
  // 3/4): 0.7, -0.225.
  dsl::Spec spec = makeSpec(R"(
[statistics]
center = false
[epsilon]
value = 0
[affine]
bias = true
[fusion]
gate = "after"
gate_activation = "sigmoid"
)");
  Outputs out = evaluateRows(
      spec, {{1, 7}, {}, {2, 0.5}, {1, -1}, 2, {0, std::log(3.0)}});
  expectValues(out.y, {0.7, -0.225});
}

TEST(ReferenceEvaluate, GateAfterRoundedRoundsYBeforeTheGate) {
  // [1, 3]: mean square 5, y = 1/sqrt(5), 3/sqrt(5) = 0.4472..., 1.3416...;
  // in bf16 0.447265625 and 1.34375; gated by sigmoid(0) = 1/2, the
  // products 0.2236328125 and 0.671875 are bf16 values already.
  dsl::Spec spec = makeSpec(R"(
[statistics]
center = false
[epsilon]
value = 0
[affine]
gain = false
[dtypes]
output = "bf16"
[fusion]
gate = "after_rounded"
gate_activation = "sigmoid"
)");
  Outputs out = evaluateRows(spec, {{1, 3}, {}, {}, {}, 2, {0, 0}});
  EXPECT_EQ(out.y[0], 0.2236328125);
  EXPECT_EQ(out.y[1], 0.671875);
}

TEST(ReferenceEvaluate, UnbiasedVariance) {
  // [0, 4, 8]: mu = 4, squared deviations 16 + 0 + 16 = 32.
  // Unbiased: s = 32/2 = 16, r = 1/4, y = -1, 0, 1.
  // Biased:   s = 32/3, r = sqrt(3/32), y = -4 sqrt(3/32) = -sqrt(1.5), 0,
  //           sqrt(1.5).
  Rows rows{{0, 4, 8}, {}, {}, {}, 3};
  dsl::Spec spec = makeSpec(R"(
[statistics]
center = true
variance = "unbiased"
[epsilon]
value = 0
[affine]
gain = false
[fusion]
save_stats = true
)");
  Outputs out = evaluateRows(spec, rows);
  expectValues(out.y, {-1, 0, 1});
  expectValues(out.rstd, {0.25});
  Outputs biased = evaluateRows(makeSpec(kLayerNorm), rows);
  expectValues(biased.y, {-std::sqrt(1.5), 0, std::sqrt(1.5)});
}

TEST(ReferenceEvaluate, FractionLimitsTheStatisticsNotTheOutput) {
  // d = 4, fraction 0.5: k = 2. RMS over [1, 7] is 5 (r = 0.2), applied to
  // all four features: [1, 7, 100, -3] -> 0.2, 1.4, 20, -0.6.
  dsl::Spec rms = makeSpec(kRmsNorm);
  rms.fraction.value = 0.5;
  Outputs out = evaluateRows(rms, {{1, 7, 100, -3}, {}, {}, {}, 4});
  expectValues(out.y, {0.2, 1.4, 20, -0.6});
  expectValues(out.rstd, {0.2});

  // LayerNorm, k = 2 of [1, 3, 10, -10]: mu = 2, s = (1 + 1)/2 = 1, r = 1,
  // y = h - 2 = -1, 1, 8, -12.
  dsl::Spec ln = makeSpec(kLayerNorm);
  ln.fraction.value = 0.5;
  out = evaluateRows(ln, {{1, 3, 10, -10}, {}, {}, {}, 4});
  expectValues(out.y, {-1, 1, 8, -12});
  expectValues(out.mean, {2});
  expectValues(out.rstd, {1});
}

TEST(ReferenceEvaluate, FractionBelowOneFeatureUsesOne) {
  // d = 3, fraction 0.3: floor(0.9) = 0, so k = 1. RMS over [2] is 2,
  // r = 1/2: [2, 5, 6] -> 1, 2.5, 3.
  dsl::Spec spec = makeSpec(kRmsNorm);
  spec.fraction.value = 0.3;
  Outputs out = evaluateRows(spec, {{2, 5, 6}, {}, {}, {}, 3});
  expectValues(out.y, {1, 2.5, 3});
}

TEST(ReferenceEvaluate, StatisticsWidth) {
  EXPECT_EQ(statisticsWidth(1.0, 7), 7);
  EXPECT_EQ(statisticsWidth(0.5, 7), 3);  // floor(3.5)
  EXPECT_EQ(statisticsWidth(0.1, 4), 1);  // floor(0.4) = 0 -> 1
  EXPECT_EQ(statisticsWidth(0.1, 10), 1); // 0.1 * 10 is exactly 1.0
  EXPECT_EQ(statisticsWidth(0.7, 10), 7); // 7.000000000000001
  // 0.29 * 100 is 28.999999999999996 in double: docs/spec.md's floor, taken
  // literally in double, gives 28.
  EXPECT_EQ(statisticsWidth(0.29, 100), 28);
  EXPECT_EQ(statisticsWidth(1e-9, 1), 1);
}

TEST(ReferenceEvaluate, EpsilonPlacement) {
  // [2, -2, 2, -2]: s = 4, eps = 5.
  // inside_sqrt:  r = 1/sqrt(4 + 5) = 1/3, y = 2/3, -2/3, ...
  // outside_sqrt: r = 1/(sqrt(4) + 5) = 1/7, y = 2/7, -2/7, ...
  Rows rows{{2, -2, 2, -2}, {}, {}, {}, 4};
  dsl::Spec spec = makeSpec(kRmsNorm);
  spec.epsilon.value = 5;
  Outputs inside = evaluateRows(spec, rows);
  expectValues(inside.y, {2.0 / 3, -2.0 / 3, 2.0 / 3, -2.0 / 3});
  expectValues(inside.rstd, {1.0 / 3});
  spec.placement.value = dsl::EpsilonPlacement::OutsideSqrt;
  Outputs outside = evaluateRows(spec, rows);
  expectValues(outside.y, {2.0 / 7, -2.0 / 7, 2.0 / 7, -2.0 / 7});
  expectValues(outside.rstd, {1.0 / 7});
}

TEST(ReferenceEvaluate, CenterWithoutScale) {
  // r = 1: [1, 2, 3, 4] - 2.5 = -1.5, -0.5, 0.5, 1.5; rstd is saved as 1.
  dsl::Spec spec = makeSpec(R"(
[statistics]
center = true
scale = false
[affine]
gain = false
[fusion]
save_stats = true
)");
  Outputs out = evaluateRows(spec, {{1, 2, 3, 4}, {}, {}, {}, 4});
  expectValues(out.y, {-1.5, -0.5, 0.5, 1.5});
  expectValues(out.mean, {2.5});
  expectValues(out.rstd, {1.0});
}

TEST(ReferenceEvaluate, TanhAndErfReplaceTheStatistics) {
  // alpha 0.5 on [2, -ln 3 * 2]: tanh(1) = (e^2 - 1) / (e^2 + 1) and
  // tanh(-ln 3) = -0.8; times gamma [2, 0.5] plus beta [1, -1].
  dsl::Spec tanh = makeSpec(R"(
[statistics]
method = "tanh"
[affine]
bias = true
)");
  double alpha = 0.5, shift = 0.25;
  Rows rows{{2, -2 * std::log(3.0)}, {}, {2, 0.5}, {1, -1}, 2};
  rows.alpha = {alpha};
  double e2 = std::exp(2.0);
  expectValues(evaluateRows(tanh, rows).y,
               {2 * (e2 - 1) / (e2 + 1) + 1, 0.5 * -0.8 - 1});
  // erf(0.5 * 2 + 0.25) and erf(-ln 3 + 0.25), from the C library (an
  // independent closed form is not at hand).
  dsl::Spec erf = tanh;
  erf.method.value = dsl::Method::Erf;
  rows.shift = {shift};
  expectValues(
      evaluateRows(erf, rows).y,
      {2 * std::erf(1.25) + 1, 0.5 * std::erf(0.25 - std::log(3.0)) - 1});
  // Without alpha the reference refuses, as without gamma.
  rows.alpha.clear();
  EXPECT_THROW(evaluateRows(tanh, rows), std::invalid_argument);
}
