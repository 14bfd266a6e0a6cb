//===- CandidatesTest.cpp - Every schedule the tuner can pick is correct --===//
//
// For every shipped spec and a sample of d (odd ones, one above 16K, and d
// at run time), every schedule candidate's kernel runs on the CPU device
// against the float64 reference, so that the tuner can never pick a fast
// wrong kernel (by default each spec at one of the shapes, every kind of
// candidate for each; every shape under scripts/test.sh --full). A spec's
// candidates for one d are emitted from one lowered module into one source,
// compiled once, and share their inputs.
//
//===----------------------------------------------------------------------===//
#include "NumericsUtil.h"

#include "normc/Frontend/SpecCompiler.h"

#include <gtest/gtest.h>

#include <iterator>

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

std::vector<Param> everyCase() {
  std::vector<Param> all;
  for (const char *name : kShippedSpecs)
    for (const Shape &shape : kShapes)
      all.emplace_back(name, shape);
  return all;
}

/// By default one shape per spec: the widest d fixed and at run time, an
/// odd d above 4096, d = 1, 7 and 64, and d = 1000 at run time.
bool representative(size_t i, const Param &) {
  const size_t shapeOfSpec[] = {7, 4, 0, 6, 1, 5, 2, 3, 4, 1, 7};
  static_assert(std::size(shapeOfSpec) == std::size(kShippedSpecs));
  return i % std::size(kShapes) == shapeOfSpec[i / std::size(kShapes)];
}

NORMC_INSTANTIATE_SWEEP(EveryCandidate, everyCase(), representative, caseName);

} // namespace
