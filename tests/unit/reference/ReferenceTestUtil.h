//===- ReferenceTestUtil.h - Helpers shared by the reference tests --------===//
//
// Build a spec from a few TOML lines and evaluate it on small rows held in
// vectors.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_TESTS_UNIT_REFERENCE_REFERENCETESTUTIL_H
#define NORMC_TESTS_UNIT_REFERENCE_REFERENCETESTUTIL_H

#include "normc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace normc::reference::test {

/// The spec `name = "t"` followed by `tables` (TOML); a parse failure fails
/// the test and gives a default spec.
inline dsl::Spec makeSpec(const std::string &tables) {
  dsl::SpecParseResult r =
      dsl::parseSpecString("name = \"t\"\n" + tables, "t.toml");
  for (const dsl::Diagnostic &d : r.diagnostics)
    ADD_FAILURE() << d.str();
  return r.spec ? *r.spec : dsl::Spec{};
}

/// RMSNorm without epsilon or gain, saving its statistics.
inline const char *const kRmsNorm = R"(
[statistics]
center = false
[epsilon]
value = 0
[affine]
gain = false
[fusion]
save_stats = true
)";

/// Contiguous rows of width d, with the optional operands a spec may need.
struct Rows {
  std::vector<double> x, residual, gamma, beta;
  int64_t d = 0;
  std::vector<double> z{};              // a gate's second input, [rows, d]
  std::vector<double> alpha{}, shift{}; // [1], Dynamic Tanh's and Derf's
};

inline Outputs evaluateRows(const dsl::Spec &spec, const Rows &rows) {
  Inputs in;
  in.d = rows.d;
  in.rows = rows.d ? static_cast<int64_t>(rows.x.size()) / rows.d : 0;
  in.x = rows.x.data();
  in.xStride = rows.d;
  in.residual = rows.residual.empty() ? nullptr : rows.residual.data();
  in.residualStride = rows.d;
  in.gamma = rows.gamma.empty() ? nullptr : rows.gamma.data();
  in.beta = rows.beta.empty() ? nullptr : rows.beta.data();
  in.z = rows.z.empty() ? nullptr : rows.z.data();
  in.zStride = rows.d;
  in.alpha = rows.alpha.empty() ? nullptr : rows.alpha.data();
  in.shift = rows.shift.empty() ? nullptr : rows.shift.data();
  return evaluate(spec, in);
}

/// Elements of the reference agree with hand-computed values to a few ulps
/// (the hand values are often closed forms such as 3/sqrt(5)).
inline void expectValues(const std::vector<double> &actual,
                         const std::vector<double> &expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], 1e-15 * (1 + std::fabs(expected[i])))
        << "element " << i;
}

} // namespace normc::reference::test

#endif // NORMC_TESTS_UNIT_REFERENCE_REFERENCETESTUTIL_H
