//===- EvaluateFusionTest.cpp - residual_add in the reference -------------===//
//
// The residual sum is rounded to the input type before anything reads it,
// and that rounded h is what residual_out holds.
//
//===----------------------------------------------------------------------===//
#include "ReferenceTestUtil.h"

#include <cmath>

using namespace normc::reference;
using namespace normc::reference::test;
namespace dsl = normc::dsl;

namespace {

dsl::Spec residualRmsNorm(const char *input) {
  return makeSpec(std::string(R"(
[statistics]
center = false
[epsilon]
value = 0
[affine]
gain = false
[dtypes]
input = ")") + input +
                  R"("
[fusion]
residual_add = true
save_stats = true
)");
}

} // namespace

TEST(ReferenceResidual, SumIsRoundedToBf16) {
  // bf16 keeps 7 fraction bits, so next to 1 the values are 1, 1 + 2^-7,
  // 1 + 2^-6 (= 1.0078125, 1.015625).
  // Row 1: 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even -> 1,
  //        so y is the unfused RMSNorm of [1, 7]: 0.2, 1.4.
  // Row 2: 1 + 3 * 2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6
  //        (even) -> 1.015625.
  // Row 3: 1 + 2^-8 + 2^-12 is above the halfway point -> 1.0078125.
  double e = std::ldexp(1.0, -8);
  Rows rows{{1, 7, 1, 7, 1, 7},
            {e, 0, 3 * e, 0, e + std::ldexp(1.0, -12), 0},
            {},
            {},
            2};
  Outputs out = evaluateRows(residualRmsNorm("bf16"), rows);
  ASSERT_EQ(out.residualOut.size(), 6u);
  EXPECT_EQ(out.residualOut,
            (std::vector<double>{1, 7, 1.015625, 7, 1.0078125, 7}));
  // Each row: y = h / sqrt((h0^2 + 49) / 2), from the rounded h0.
  std::vector<double> expected;
  for (double h0 : {1.0, 1.015625, 1.0078125}) {
    double rms = std::sqrt((h0 * h0 + 49) / 2);
    expected.insert(expected.end(), {h0 / rms, 7 / rms});
  }
  expectValues(out.y, expected);
  expectValues({out.y[0], out.y[1]}, {0.2, 1.4});

  // With f32 input the same sums are exact.
  Outputs f32 = evaluateRows(residualRmsNorm("f32"), rows);
  EXPECT_EQ(f32.residualOut[0], 1 + e);
  EXPECT_EQ(f32.residualOut[2], 1 + 3 * e);
}

TEST(ReferenceResidual, F16SumOverflowsOnlyItsRow) {
  // The largest f16 is 65504 and the next step would be 65536, so sums from
  // 65520 up round to Inf, and 65519 rounds down to 65504.
  // Row 1: h = [Inf, 1], mean square Inf, r = 0: y = Inf * 0 = NaN, 1 * 0 = 0.
  // Row 2: h = [65504, 1] stays finite: y ~ 65504 / (65504 / sqrt 2) = sqrt 2.
  // Row 3: untouched by the rows above: 0.2, 1.4.
  Outputs out = evaluateRows(
      residualRmsNorm("f16"),
      {{65504, 1, 65504, 1, 1, 7}, {16, 0, 15, 0, 0, 0}, {}, {}, 2});
  EXPECT_EQ(out.residualOut[0], INFINITY);
  EXPECT_EQ(out.residualOut[2], 65504);
  EXPECT_TRUE(std::isnan(out.y[0]));
  EXPECT_EQ(out.y[1], 0);
  EXPECT_EQ(out.rstd[0], 0);
  double rms = std::sqrt((65504.0 * 65504.0 + 1) / 2);
  expectValues({out.y[2], out.y[3]}, {65504 / rms, 1 / rms});
  EXPECT_NEAR(out.y[2], std::sqrt(2.0), 1e-9);
  expectValues({out.y[4], out.y[5]}, {0.2, 1.4});
}
