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

  std::vector<Schedule> candidates = scheduleCandidates(compilation->problem());
  ASSERT_FALSE(candidates.empty());
  std::string source;
  std::vector<KernelLaunchInfo> kernels;
  for (size_t i = 0; i < candidates.size(); ++i) {
    std::optional<EmittedKernel> kernel = compilation->emit(
        candidates[i], errors, spec.name.value + "_" + std::to_string(i));
    ASSERT_TRUE(kernel) << candidates[i].str() << ": " << errors;
    source += kernel->source;
    kernels.push_back(kernel->info);
  }
  cpu::CpuModule module =
      cpu::CpuModule::compile(source, kernelCompileOptions());

  // Five rows: a partial last group for every rows_per_block above one.
  CaseData data = makeCase(spec, 5, shape.d, 17);
  RunOptions options;
  options.launch.laneOrder = cpu::LaneOrder::Random;
  options.launch.seed = 3;
  int launched = 0;
  for (size_t i = 0; i < candidates.size(); ++i) {
    // With d at run time, a shared-memory row may not fit at this d: the
    // launch refuses it, and so does the tuner.
    if (kernels[i].dynamicSharedBytes(shape.d) > kMaxSharedBytes) {
      EXPECT_FALSE(shape.specialize) << candidates[i].str();
      continue;
    }
    ++launched;
    RunOutputs out =
        runModuleOnCpu(spec, {kernels[i]}, module, inputsOf(data), options);
    Grade g = grade(spec, data, out);
    EXPECT_LE(g.worst(), 1.0) << candidates[i].str() << ": " << g.str();
  }
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
