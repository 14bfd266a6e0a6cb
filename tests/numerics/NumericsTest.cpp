//===- NumericsTest.cpp - Every shipped spec against the reference --------===//
//
// Each shipped spec, with each input type, with d fixed at compile time and
// at run time, over d in {1, 7, 64, 127, 1000, 4096, 4097, 12288, 65536} and
// rows in {0, 1, 3, 257} (by default each spec with one input type and one
// of the two; every combination under scripts/test.sh --full). Lane orders
// rotate over forward, reverse and seeded random. Prints the worst error of
// each case as a fraction of the bound, and the worst of all at the end.
//
//===----------------------------------------------------------------------===//
#include "NumericsUtil.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <tuple>

using namespace normc;
using namespace normc::test;

namespace {

struct Worst {
  double fraction = 0;
  std::string where;
  int cases = 0;
};
Worst &worstOverall() {
  static Worst worst;
  return worst;
}

class Summary : public ::testing::Environment {
  void TearDown() override {
    const Worst &w = worstOverall();
    std::printf("numerics: worst error over %d cases: %.3g of the bound (%s)\n",
                w.cases, w.fraction, w.where.c_str());
  }
};
const auto *const summary = ::testing::AddGlobalTestEnvironment(new Summary);

const dsl::DType kInputs[] = {dsl::DType::F32, dsl::DType::F16,
                              dsl::DType::BF16};

using Param = std::tuple<const char *, dsl::DType, bool>;

class Numerics : public ::testing::TestWithParam<Param> {};

TEST_P(Numerics, MeetsTheBound) {
  auto [name, input, specialize] = GetParam();
  dsl::Spec spec = loadShippedSpec(name);
  spec.input.value = input;
  unsigned index = 0;
  for (int64_t d : kSuiteD) {
    for (int64_t rows : kSuiteRows) {
      // The widest rows cost the most on the CPU: one row count suffices.
      if (d == 65536 && rows == 3)
        continue;
      RunOptions options;
      options.specialize = specialize;
      options.compile = kernelCompileOptions();
      options.launch.laneOrder = kLaneOrders[index % 3];
      options.launch.seed = index;
      CaseData data = makeCase(spec, rows, d, 1000 + index);
      ++index;
      Grade grade = runAndGrade(spec, data, options);
      char where[200];
      std::snprintf(where, sizeof where, "%s input=%s d=%lld%s rows=%lld", name,
                    std::string(dsl::toString(input)).c_str(), (long long)d,
                    specialize ? "" : " (run-time d)", (long long)rows);
      std::printf("  %-58s %s\n", where, grade.str().c_str());
      EXPECT_LE(grade.worst(), 1.0) << where << ": " << grade.str();
      Worst &w = worstOverall();
      ++w.cases;
      if (grade.worst() >= w.fraction) {
        w.fraction = grade.worst();
        w.where = where;
      }
    }
  }
}

std::string caseName(const ::testing::TestParamInfo<Param> &info) {
  auto [name, input, specialize] = info.param;
  return std::string(name) + "_" + std::string(dsl::toString(input)) +
         (specialize ? "_fixed_d" : "_runtime_d");
}

std::vector<Param> everyCase() {
  std::vector<Param> all;
  for (const char *name : kShippedSpecs)
    for (dsl::DType input : kInputs)
      for (bool specialize : {false, true})
        all.emplace_back(name, input, specialize);
  return all;
}

/// By default each spec runs the matrix once, the input types and the
/// fixed and run-time d rotating over the specs.
bool representative(size_t i, const Param &) {
  size_t spec = i / 6, input = i / 2 % 3;
  return input == spec % 3 && i % 2 == spec % 2;
}

NORMC_INSTANTIATE_SWEEP(Numerics, everyCase(), representative, caseName);

} // namespace
