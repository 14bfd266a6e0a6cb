//===- CandidatesTest.cpp - Every schedule the tuner can pick is correct --===//
//
// For every shipped spec and a sample of d (odd ones, one above 16K, and d
// at run time), every schedule candidate's kernel runs on the CPU device
// against the float64 reference, so that the tuner can never pick a fast
// wrong kernel. A spec's candidates for one d are emitted from one lowered
// module into one source, compiled once, and share their inputs.
//
//===----------------------------------------------------------------------===//
#include "NumericsUtil.h"

#include "normc/Frontend/SpecCompiler.h"

#include <gtest/gtest.h>

using namespace normc;
using namespace normc::test;

namespace {

struct Shape {
  int64_t d;
  bool specialize; // d fixed at compile time
};

const Shape kShapes[] = {{1, true},     {7, true},     {64, true},
                         {1000, true},  {4097, true},  {16411, true},
                         {1000, false}, {16411, false}};

using Param = std::tuple<const char *, Shape>;

class EveryCandidate : public ::testing::TestWithParam<Param> {};

TEST_P(EveryCandidate, MatchesTheReference) {
  auto [name, shape] = GetParam();
  dsl::Spec spec = loadShippedSpec(name);
  spec.saveStats.value = true; // grade the statistics too
  std::string errors;
  std::unique_ptr<SpecCompilation> compilation = SpecCompilation::create(
      spec, shape.specialize ? std::optional<int64_t>(shape.d) : std::nullopt,
      errors);
  ASSERT_TRUE(compilation) << errors;

  CandidateKernels candidates =
      compileCandidates(*compilation, spec.name.value);

  // Five rows: a partial last group for every rows_per_block above one.
  CaseData data = makeCase(spec, 5, shape.d, 17);
  int launched = expectEveryCandidateKeepsTheBound(spec, candidates, data,
                                                   shape.specialize);
  EXPECT_GT(launched, 0);
  RecordProperty("candidates", launched);
}

std::string caseName(const ::testing::TestParamInfo<Param> &info) {
  auto [name, shape] = info.param;
  return std::string(name) + "_d" + std::to_string(shape.d) +
         (shape.specialize ? "_fixed" : "_runtime");
}

INSTANTIATE_TEST_SUITE_P(ShippedSpecs, EveryCandidate,
                         ::testing::Combine(::testing::ValuesIn(kShippedSpecs),
                                            ::testing::ValuesIn(kShapes)),
                         caseName);

} // namespace
