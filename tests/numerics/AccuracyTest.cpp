//===- AccuracyTest.cpp - Reductions stay accurate on offset rows ---------===//
//
// Rows with mean 50 and unit spread at d = 65536, summed by 32 threads of
// 2048 terms each (the fewest threads a candidate gives such a row): with
// plain f32 sums the saved mean of this data is 1.09 ulp off the float64
// mean; normc's per-thread sums are compensated, which keeps it within
// 0.72 ulp, and y within the bound, in every input type and with d fixed or
// at run time.
//
//===----------------------------------------------------------------------===//
#include "NumericsUtil.h"

#include "normc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace normc;
using namespace normc::test;

TEST(Accuracy, OffsetRowsKeepTheMeanAndTheBound) {
  const int64_t d = 65536;
  for (dsl::DType input : {dsl::DType::F32, dsl::DType::F16, dsl::DType::BF16})
    for (bool specialize : {true, false}) {
      dsl::Spec spec = loadShippedSpec("layernorm");
      spec.input.value = spec.output.value = input;
      spec.saveStats.value = true;
      CaseData data = makeCase(spec, 3, d, 29);
      for (double &v : data.x)
        v = reference::roundTo(input, v + 50.0);
      RunOptions options;
      options.specialize = specialize;
      // The fewest threads a candidate gives such a row: 2048 terms each.
      options.schedule.threadsPerRow = 32;
      options.schedule.rowsPerBlock = 4;
      options.compile = kernelCompileOptions();
      RunOutputs out;
      Grade grade = runAndGrade(spec, data, options, &out);
      std::string what = std::string(dsl::toString(input)) +
                         (specialize ? " fixed d" : " run-time d");
      EXPECT_LE(grade.worst(), 1.0) << what << ": " << grade.str();
      ASSERT_EQ(out["mean"].size(), 3u);
      for (int64_t row = 0; row < 3; ++row) {
        double exact = 0;
        for (int64_t i = 0; i < d; ++i)
          exact += data.x[row * d + i];
        exact /= d;
        double ulp = std::ldexp(1.0, std::ilogb(exact) - 23);
        EXPECT_LE(std::fabs(out["mean"][row] - exact), ulp)
            << what << ", row " << row << ": mean " << out["mean"][row]
            << " vs " << exact;
      }
    }
}

// Rows of mean 1e4 and unit spread in f32: the mean's own rounding to f32
// (half an ulp of 1e4, about 5e-4) moves every y by as much, far beyond
// 2 tol (|y| + 1) alone; the second term of the bound (docs/numerics.md)
// admits exactly that. The kernel must keep the whole bound, and the test
// shows that the term is what it needs.
TEST(Accuracy, LargeMeansNeedTheConditionedTerm) {
  dsl::Spec spec = loadShippedSpec("layernorm");
  CaseData data = makeCase(spec, 5, 1000, 31);
  for (double &v : data.x)
    v = reference::roundTo(dsl::DType::F32, v + 1e4);
  RunOptions options;
  options.compile = kernelCompileOptions();
  RunOutputs out;
  Grade grade = runAndGrade(spec, data, options, &out);
  EXPECT_LE(grade.worst(), 1.0) << grade.str();

  reference::Inputs in;
  in.x = data.x.data();
  in.gamma = data.gamma.data();
  in.beta = data.beta.data();
  in.rows = data.rows;
  in.d = in.xStride = data.d;
  reference::Outputs ref = reference::evaluate(spec, in);
  double withoutTerm = 0;
  for (size_t i = 0; i < ref.y.size(); ++i)
    withoutTerm =
        std::max(withoutTerm, reference::errorFraction(out["y"][i], ref.y[i],
                                                       spec.output.value));
  EXPECT_GT(withoutTerm, 1.0) << "the data does not need the conditioned term";
  std::printf("  mean 1e4: %.3g of the bound, %.3g without its second term\n",
              grade.y, withoutTerm);
}
