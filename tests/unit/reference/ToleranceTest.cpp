//===- ToleranceTest.cpp - The promise |y - ref| <= 2 tol (|ref| + 1) -----===//
#include "ReferenceTestUtil.h"
#include "normc/Reference/Gradient.h"
#include "normc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace normc::reference;
using normc::dsl::DType;

TEST(ReferenceTolerance, PerOutputType) {
  EXPECT_EQ(tolerance(DType::BF16), 1.0 / 128);
  EXPECT_EQ(tolerance(DType::F16), 1.0 / 1024);
  EXPECT_EQ(tolerance(DType::F32), 1.0 / 131072);
  EXPECT_EQ(tolerance(DType::F64), tolerance(DType::F32));
}

TEST(ReferenceTolerance, FractionOfTheBound) {
  // f32, ref 1: bound 2 * 2^-17 * (1 + 1) = 2^-15.
  EXPECT_EQ(errorFraction(1, 1, DType::F32), 0);
  EXPECT_EQ(errorFraction(1 + std::ldexp(1.0, -15), 1, DType::F32), 1);
  EXPECT_EQ(errorFraction(1 - std::ldexp(1.0, -14), 1, DType::F32), 2);
  // bf16, ref 0: bound 2 * 2^-7 * 1 = 2^-6; an error of 2^-7 uses half.
  EXPECT_EQ(errorFraction(std::ldexp(1.0, -7), 0, DType::BF16), 0.5);
  // f16, ref -3: bound 2 * 2^-10 * 4 = 2^-7; an error of 2^-8 uses half.
  EXPECT_EQ(errorFraction(-3 + std::ldexp(1.0, -8), -3, DType::F16), 0.5);
  // The bound grows with |ref|: 1000 +- 1 in bf16 is well inside
  // (bound 2 * 2^-7 * 1001 = 15.64).
  EXPECT_NEAR(errorFraction(1001, 1000, DType::BF16), 128.0 / 2002, 1e-15);
}

TEST(ReferenceTolerance, NaNAndInfinity) {
  for (DType t : {DType::BF16, DType::F16, DType::F32}) {
    EXPECT_EQ(errorFraction(NAN, NAN, t), 0);
    EXPECT_EQ(errorFraction(1, NAN, t), INFINITY);
    EXPECT_EQ(errorFraction(INFINITY, NAN, t), INFINITY);
    EXPECT_EQ(errorFraction(INFINITY, INFINITY, t), 0);
    EXPECT_EQ(errorFraction(-INFINITY, -INFINITY, t), 0);
    EXPECT_EQ(errorFraction(-INFINITY, INFINITY, t), INFINITY);
    EXPECT_EQ(errorFraction(NAN, INFINITY, t), INFINITY);
    EXPECT_EQ(errorFraction(1e300, INFINITY, t), INFINITY);
    // A finite ref needs a finite y.
    EXPECT_EQ(errorFraction(NAN, 1, t), INFINITY);
    EXPECT_EQ(errorFraction(INFINITY, 1e30, t), INFINITY);
  }
}

TEST(Tolerance, ConditioningWidensTheBound) {
  // 2^-15 off at 1 uses the whole f32 bound 2 * 2^-17 * 2; a conditioning
  // term as large again halves it.
  EXPECT_EQ(errorFraction(1 + std::ldexp(1.0, -15), 1, DType::F32,
                          std::ldexp(1.0, -15)),
            0.5);
  EXPECT_EQ(errorFraction(NAN, 1, DType::F32, 1e9), INFINITY);
}

TEST(Tolerance, SmallestSubnormals) {
  EXPECT_EQ(normc::dsl::smallestSubnormal(DType::F16), std::ldexp(1.0, -24));
  EXPECT_EQ(normc::dsl::smallestSubnormal(DType::BF16), std::ldexp(1.0, -133));
  EXPECT_EQ(normc::dsl::smallestSubnormal(DType::F32), std::ldexp(1.0, -149));
  for (DType t : {DType::F16, DType::BF16, DType::F32}) {
    EXPECT_EQ(roundTo(t, normc::dsl::smallestSubnormal(t)),
              normc::dsl::smallestSubnormal(t));
    EXPECT_EQ(roundTo(t, normc::dsl::smallestSubnormal(t) / 4), 0);
  }
}

TEST(Tolerance, ParameterGradientsAdmitACorrectlyRoundedSubnormal) {
  // A one-row dgamma of 3e-6 (M = 3e-6) lies below f16's normal range:
  // rounding it once is off by up to 2^-25, far more than 2 tol |ref| +
  // 2^-16 M; one subnormal step more is not admitted.
  double ref = 3e-6, rounded = roundTo(DType::F16, ref);
  ASSERT_NE(rounded, ref);
  EXPECT_LE(paramGradErrorFraction(rounded, ref, ref, DType::F16), 1);
  EXPECT_GT(paramGradErrorFraction(rounded + std::ldexp(1.0, -24), ref, ref,
                                   DType::F16),
            1);
}

namespace {
/// y and its conditioning for one f16 row of RMSNorm without a gain.
Outputs evaluateRow(const std::string &normalized, int64_t d) {
  normc::dsl::Spec spec = test::makeSpec(
      "[statistics]\ncenter = false\n[epsilon]\nvalue = 0\n[affine]\ngain = "
      "false\nnormalized = \"" +
      normalized + "\"\n[dtypes]\ninput = \"f16\"\noutput = \"f32\"\n");
  std::vector<double> x(d);
  for (int64_t i = 0; i < d; ++i)
    x[i] = roundTo(DType::F16, std::sin(0.37 * double(i)) * 3);
  Inputs in;
  in.x = x.data();
  in.rows = 1;
  in.d = in.xStride = d;
  return evaluate(spec, in);
}
} // namespace

TEST(Tolerance, RoundingNNearAMidpointConditionsY) {
  // Where an f32 evaluation of n may round to either f16 neighbour, the
  // conditioning admits the other one (an ulp of n); elsewhere it is only
  // mu's rounding (2^-23 r |h|), as without the rounding.
  const int64_t d = 65536;
  Outputs rounded = evaluateRow("input", d),
          plain = evaluateRow("accumulate", d);
  int flips = 0;
  for (int64_t i = 0; i < d; ++i) {
    double extra = rounded.yConditioning[i] - plain.yConditioning[i];
    if (extra == 0)
      continue;
    ++flips;
    // y is the rounded n: its other neighbour is one f16 ulp away.
    double ulp = std::ldexp(1.0, std::ilogb(rounded.y[i]) - 10);
    EXPECT_EQ(extra, ulp) << i;
    // and n lies within the slack (2^-20 + 2^-23) |n| of the midpoint.
    EXPECT_LE(std::fabs(std::fabs(plain.y[i] - rounded.y[i]) - ulp / 2),
              std::ldexp(std::fabs(plain.y[i]), -19))
        << i;
  }
  // About 2 * 2^-20 / 2^-10 of the elements lie that close to a midpoint.
  EXPECT_GT(flips, 16);
  EXPECT_LT(flips, 1024);
}
