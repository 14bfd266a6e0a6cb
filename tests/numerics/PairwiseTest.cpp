//===- PairwiseTest.cpp - Every key of the spec language through a kernel
//--===//
//
// A pairwise covering design over every key of docs/spec.md (each
// with two to four values) and over the case: d, the mean of the data (0,
// or 50 where the conditioned term of the bound matters), d fixed or at run
// time, the row count and the backward's inputs. Every row of the design is
// a spec written as TOML and read by the front end (combinations it rejects
// are not in the design), run forward and backward on the CPU device, and
// graded against the float64 reference with the full bounds of
// docs/numerics.md.
// By default only the rows that between them hold every level of every
// factor run; scripts/test.sh --full runs the whole design.
//
// f16 and bf16 accumulation are graded as NumericsUtil.h's Leeway says.
//
//===----------------------------------------------------------------------===//
#include "CoveringDesign.h"
#include "NumericsUtil.h"

#include "normc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <numeric>

using namespace normc;
using namespace normc::test;

namespace {

// Spec keys are "table.key" (TOML values); the case's own factors "case.*".
const std::vector<Factor> kFactors = {
    {"statistics.center", {"false", "true"}},
    {"statistics.scale", {"true", "false"}},
    {"statistics.fraction", {"1.0", "0.37"}},
    {"statistics.variance", {"\"biased\"", "\"unbiased\""}},
    {"epsilon.value", {"1e-5", "0.0", "0.25"}},
    {"epsilon.placement", {"\"inside_sqrt\"", "\"outside_sqrt\""}},
    {"affine.gain", {"true", "false"}},
    {"affine.gain_offset", {"0.0", "1.0", "-0.5", "2.75"}},
    {"affine.bias", {"false", "true"}},
    {"affine.normalized", {"\"accumulate\"", "\"input\"", "\"params\""}},
    {"dtypes.input", {"\"f32\"", "\"f16\"", "\"bf16\""}},
    {"dtypes.output", {"\"f32\"", "\"f16\"", "\"bf16\""}},
    {"dtypes.params", {"\"f32\"", "\"f16\"", "\"bf16\""}},
    {"dtypes.accumulate", {"\"f32\"", "\"f64\"", "\"f16\"", "\"bf16\""}},
    // An empty level leaves the key out (its default).
    {"dtypes.residual", {"", "\"f32\"", "\"bf16\""}},
    {"dtypes.accumulate_rows", {"", "\"f32\""}},
    {"fusion.residual_add", {"false", "true"}},
    {"fusion.save_stats", {"false", "true"}},
    {"case.d", {"1", "7", "64", "1000", "4097", "12288"}},
    {"case.mean", {"0", "50"}},
    {"case.d", {"fixed", "run-time"}},
    {"case.rows", {"1", "6", "33"}},
    {"case.backward",
     {"backward", "backward+saved_stats", "backward+dresidual_out",
      "backward+saved_stats+dresidual_out"}},
};

unsigned factorIndex(const std::string &name) {
  for (unsigned f = 0; f < kFactors.size(); ++f)
    if (kFactors[f].name == name)
      return f;
  throw std::logic_error("no factor " + name);
}

const std::string &level(const DesignRow &row, const std::string &name) {
  unsigned f = factorIndex(name);
  return kFactors[f].levels[row[f]];
}

/// The row's spec keys as a TOML file.
std::string specText(const DesignRow &row) {
  std::string text = "name = \"pairwise\"\n", table;
  for (unsigned f = 0; f < kFactors.size(); ++f) {
    const std::string &name = kFactors[f].name;
    size_t dot = name.find('.');
    std::string t = name.substr(0, dot);
    if (t == "case")
      continue;
    if (t != table)
      text += "[" + (table = t) + "]\n";
    if (!kFactors[f].levels[row[f]].empty())
      text += name.substr(dot + 1) + " = " + kFactors[f].levels[row[f]] + "\n";
  }
  return text;
}

std::optional<dsl::Spec> specOf(const DesignRow &row) {
  return dsl::parseSpecString(specText(row), "pairwise.toml").spec;
}

/// Rows the front end accepts, and cases with a defined answer: the
/// unbiased variance needs two features, a zero epsilon a row that is not
/// constant, and f16 or bf16 sums stay in range (mean 0, d <= 1000) and
/// average at least 8 features (with fewer, one rounding of mu can decide
/// the variance).
bool validRow(const DesignRow &row) {
  std::optional<dsl::Spec> spec = specOf(row);
  if (!spec)
    return false;
  int64_t d = std::stoll(level(row, "case.d"));
  if (d == 1 && (spec->variance.value == dsl::Variance::Unbiased ||
                 spec->epsilon.value == 0))
    return false;
  if (leewayOf(*spec, d).coarsest && // f16 or bf16 accumulation
      (level(row, "case.mean") != "0" || d > 1000 ||
       reference::statisticsWidth(spec->fraction.value, d) < 8))
    return false;
  return spec->residualAdd.value ||
         level(row, "case.backward").find("dresidual_out") == std::string::npos;
}

const CoveringDesign &design() {
  static const CoveringDesign d = coveringDesign(kFactors, validRow, 2026);
  return d;
}

class Pairwise : public ::testing::TestWithParam<size_t> {};

TEST(PairwiseDesign, CoversEveryPossiblePairOfKeys) {
  const CoveringDesign &d = design();
  std::printf("pairwise: %zu rows over %zu factors; pairs no valid row "
              "holds:\n",
              d.rows.size(), kFactors.size());
  for (const std::string &pair : d.impossiblePairs)
    std::printf("  %s\n", pair.c_str());
  // Only the front end's rules and validRow's exclude pairs, each exactly
  // these many: center/scale 1, center/unbiased 1, gain = false with a
  // non-zero offset 3, unbiased or a zero epsilon at d = 1 2, f16 or bf16
  // accumulation with d < 8 (fewer than 8 statistics features), d > 1000 or
  // offset data 10, dresidual_out without residual_add 2, a residual type
  // without residual_add 2. A pair the design failed to cover would show up
  // here.
  EXPECT_EQ(d.impossiblePairs.size(), 21u);
  EXPECT_LE(d.rows.size(), 64u);
}

TEST_P(Pairwise, MeetsTheBounds) {
  const DesignRow &row = design().rows[GetParam()];
  std::optional<dsl::Spec> parsed = specOf(row);
  ASSERT_TRUE(parsed) << specText(row);
  const dsl::Spec &spec = *parsed;
  int64_t d = std::stoll(level(row, "case.d"));
  int64_t rows = std::stoll(level(row, "case.rows"));
  double mean = std::stod(level(row, "case.mean"));
  std::string where =
      "row " + std::to_string(GetParam()) + ": d=" + std::to_string(d) +
      " rows=" + std::to_string(rows) + " mean=" + level(row, "case.mean") +
      " " + level(row, "case.d") + " d\n" + specText(row);
  SCOPED_TRACE(where);

  CaseData data = makeCase(spec, rows, d, 4000 + GetParam());
  for (double &v : data.x)
    v = reference::roundTo(spec.input.value, v + mean);
  RunOptions options;
  options.specialize = level(row, "case.d") == "fixed";
  options.compile = kernelCompileOptions();
  options.launch.laneOrder = kLaneOrders[GetParam() % std::size(kLaneOrders)];
  options.launch.seed = GetParam();
  Grade forward = runAndGrade(spec, data, options);
  EXPECT_LE(forward.worst(), 1.0) << forward.str();

  options.program = *Program::parse(level(row, "case.backward"));
  GradientCase grad =
      makeGradientCase(spec, data, options.program, 5000 + GetParam());
  RunOutputs got = runSpecOnCpu(spec, inputsOf(data, grad), options);
  GradientGrade backward = gradeGradient(spec, data, grad, got);
  EXPECT_LE(backward.worst(), 1.0)
      << options.program.str() << ": " << backward.str();
  std::printf("  row %2zu d=%-5lld %s\n    %s\n", GetParam(), (long long)d,
              forward.str().c_str(), backward.str().c_str());
}

/// The default run's rows: the fewest, picked greedily, that between them
/// hold every level of every factor (every value of every key, each case
/// shape and backward program). --full runs the rest of the design too.
std::vector<size_t> everyLevelOnce() {
  const std::vector<DesignRow> &rows = design().rows;
  std::vector<std::vector<bool>> seen(kFactors.size());
  for (size_t f = 0; f < kFactors.size(); ++f)
    seen[f].assign(kFactors[f].levels.size(), false);
  auto newLevels = [&](const DesignRow &row) {
    int count = 0;
    for (size_t f = 0; f < row.size(); ++f)
      count += !seen[f][row[f]];
    return count;
  };
  std::vector<size_t> picked;
  for (;;) {
    size_t best = rows.size();
    int bestCount = 0;
    for (size_t i = 0; i < rows.size(); ++i)
      if (int count = newLevels(rows[i]); count > bestCount)
        best = i, bestCount = count;
    if (best == rows.size())
      break;
    picked.push_back(best);
    for (size_t f = 0; f < rows[best].size(); ++f)
      seen[f][rows[best][f]] = true;
  }
  std::sort(picked.begin(), picked.end());
  return picked;
}

std::vector<size_t> everyRow() {
  std::vector<size_t> all(design().rows.size());
  std::iota(all.begin(), all.end(), size_t(0));
  return all;
}

bool representative(size_t, size_t row) {
  static const std::vector<size_t> picked = everyLevelOnce();
  return std::binary_search(picked.begin(), picked.end(), row);
}

TEST(PairwiseDesign, TheDefaultRowsHoldEveryLevel) {
  std::vector<size_t> picked = casesWhere(everyRow(), representative, true);
  for (size_t f = 0; f < kFactors.size(); ++f)
    for (unsigned l = 0; l < kFactors[f].levels.size(); ++l)
      EXPECT_TRUE(
          std::any_of(picked.begin(), picked.end(),
                      [&](size_t i) { return design().rows[i][f] == l; }))
          << kFactors[f].name << " = " << kFactors[f].levels[l];
  std::printf("pairwise: %zu of %zu rows by default\n", picked.size(),
              design().rows.size());
}

std::string rowName(const ::testing::TestParamInfo<size_t> &info) {
  return "row" + std::to_string(info.param);
}

NORMC_INSTANTIATE_SWEEP(Pairwise, everyRow(), representative, rowName);

} // namespace
