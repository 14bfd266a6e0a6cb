//===- ToleranceTest.cpp - The promise |y - ref| <= 2 tol (|ref| + 1) -----===//
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
