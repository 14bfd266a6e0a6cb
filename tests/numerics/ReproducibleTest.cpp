//===- ReproducibleTest.cpp - Reproducible mode gives one answer ----------===//
//
// docs/numerics.md, "Reproducible mode": with [numerics] reproducible, every
// schedule candidate of a spec computes the bits of the default schedule,
// forward and backward, fp8 outputs included, whatever the lanes' order; a
// row gets the same bits alone and at any position of any batch with the
// tuner on; the sums over rows fill the same partial rows whatever the
// grid. Bits are compared, not bounds.
//
//===----------------------------------------------------------------------===//
#include "NumericsUtil.h"

#include "normc/Frontend/SpecCompiler.h"
#include "normc/Policy/Heuristic.h"
#include "normc/Runtime/Api/HostRun.h"
#include "normc/normc.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace normc;
using namespace normc::test;

namespace {

/// Whether two runs wrote the same outputs, bit for bit (each element is a
/// double holding the kernel's value exactly); the first difference if not.
::testing::AssertionResult sameBits(const RunOutputs &want,
                                    const RunOutputs &got) {
  if (want.arrays.size() != got.arrays.size())
    return ::testing::AssertionFailure()
           << want.arrays.size() << " outputs against " << got.arrays.size();
  for (const auto &[name, values] : want.arrays) {
    const std::vector<double> &other = got[name];
    if (other.size() != values.size())
      return ::testing::AssertionFailure()
             << name << ": " << other.size() << " elements, want "
             << values.size();
    for (size_t i = 0; i < values.size(); ++i)
      if (std::memcmp(&values[i], &other[i], sizeof(double)) != 0)
        return ::testing::AssertionFailure()
               << name << "[" << i << "] = " << other[i] << ", want "
               << values[i];
  }
  return ::testing::AssertionSuccess();
}

struct Case {
  const char *spec;
  int64_t d;
  bool specialize;
  int64_t rows;
  /// An fp8 output with this scale (the spec's own output otherwise).
  std::optional<dsl::QuantizeScale> fp8;
};

dsl::Spec reproducibleSpec(const Case &c) {
  dsl::Spec spec = loadShippedSpec(c.spec);
  spec.reproducible.value = true;
  if (c.fp8) {
    spec.output.value = dsl::DType::F8E4M3;
    spec.quantizeScale.value = *c.fp8;
    if (spec.gate.value == dsl::Gate::AfterRounded) // no rounded y to gate
      spec.gate.value = dsl::Gate::After;
  } else {
    spec.saveStats.value = true; // compare the statistics too
  }
  return spec;
}

/// Runs every candidate of `program` on `data` (lanes in a random order, a
/// seed per candidate) and expects each to write the default's bits;
/// returns how many ran.
int expectEveryCandidateAgrees(const dsl::Spec &spec, const Case &c,
                               const Program &program, const RunInputs &in) {
  std::string errors;
  std::unique_ptr<SpecCompilation> compilation = SpecCompilation::create(
      spec, c.specialize ? std::optional<int64_t>(c.d) : std::nullopt, errors,
      program);
  if (!compilation) {
    ADD_FAILURE() << errors;
    return 0;
  }
  CandidateKernels candidates =
      compileCandidates(*compilation, spec.name.value);
  std::optional<RunOutputs> first;
  int launched = 0, clusters = 0;
  for (size_t i = 0; i < candidates.schedules.size(); ++i) {
    const Schedule &s = candidates.schedules[i];
    ScheduleProblem problem = compilation->problem();
    problem.arch = 90; // where the clusters are
    EXPECT_EQ(checkReproducible(s, problem), "");
    if (!fitsShared(candidates, i, c.d))
      continue;
    RunOptions options;
    options.launch.laneOrder = cpu::LaneOrder::Random;
    options.launch.seed = 11 + i;
    RunOutputs out = runModuleOnCpu(spec, candidates.kernels[i],
                                    candidates.module, in, options);
    ++launched;
    clusters += s.strategy == Strategy::Cluster;
    if (!first)
      first = std::move(out);
    else
      EXPECT_TRUE(sameBits(*first, out)) << program.str() << " " << s.str();
  }
  // From d = 16384 a forward has cluster candidates (Candidates.h), and
  // they ran.
  if (program == Program::forward() && c.specialize && c.d >= 16384) {
    EXPECT_GT(clusters, 0) << "no cluster among the candidates";
  }
  return launched;
}

class EveryReproducibleCandidate : public ::testing::TestWithParam<Case> {};

TEST_P(EveryReproducibleCandidate, GivesTheSameBits) {
  const Case &c = GetParam();
  dsl::Spec spec = reproducibleSpec(c);
  CaseData data = makeCase(spec, c.rows, c.d, 23);
  // More than one schedule, or the comparison is empty.
  EXPECT_GE(
      expectEveryCandidateAgrees(spec, c, Program::forward(), inputsOf(data)),
      2);
  if (c.fp8)
    return; // fp8 outputs have no backward
  for (const Program &program : Program::backwards(spec.residualAdd.value)) {
    GradientCase grad = makeGradientCase(spec, data, program, 24);
    EXPECT_GE(
        expectEveryCandidateAgrees(spec, c, program, inputsOf(data, grad)), 2)
        << program.str();
  }
}

// Rows past kReproduciblePartialRows / rows_per_block blocks share partial
// rows (4100 rows at d = 24); an odd d, d at run time, fp8 row and block
// scales; at d = 16384 the clusters of sm_90 (slices of 8192 to 2048).
const Case kCases[] = {
    {"llama_rmsnorm", 4096, true, 37, std::nullopt},
    {"llama_rmsnorm", 16384, true, 3, std::nullopt},
    {"layernorm", 3000, true, 9, std::nullopt},
    {"fused_add_rmsnorm", 1000, false, 13, std::nullopt},
    {"layernorm", 24, true, 4100, std::nullopt},
    {"llama_rmsnorm", 4096, true, 5, dsl::QuantizeScale::Row},
    {"llama_rmsnorm", 1000, true, 5, dsl::QuantizeScale::Block},
    {"mamba2_gated_rmsnorm", 2000, false, 7, std::nullopt},
};

/// Every shipped spec at d = 7, 1000, 4097 and 12288 fixed (one partial
/// tile, a row of one warp, ragged tiles and tables, a wide row) and 4097 at
/// run time, 33 rows: the sweep of scripts/test.sh --full.
std::vector<Case> sweepCases() {
  std::vector<Case> cases;
  for (const char *spec : kShippedSpecs) {
    for (int64_t d : {7, 1000, 4097, 12288})
      cases.push_back({spec, d, true, 33, std::nullopt});
    cases.push_back({spec, 4097, false, 33, std::nullopt});
  }
  return cases;
}

std::string caseName(const ::testing::TestParamInfo<Case> &info) {
  const Case &c = info.param;
  std::string scale = !c.fp8                              ? ""
                      : *c.fp8 == dsl::QuantizeScale::Row ? "_fp8_row"
                                                          : "_fp8_block";
  return std::string(c.spec) + "_d" + std::to_string(c.d) +
         (c.specialize ? "_fixed" : "_runtime") + "_rows" +
         std::to_string(c.rows) + scale;
}

INSTANTIATE_TEST_SUITE_P(Reproducible, EveryReproducibleCandidate,
                         ::testing::ValuesIn(kCases), caseName);
INSTANTIATE_TEST_SUITE_P(Sweep, EveryReproducibleCandidate,
                         ::testing::ValuesIn(sweepCases()), caseName);

/// The outputs of row `row` of a forward run: its part of each [rows, ...]
/// output.
std::map<std::string, std::vector<double>> rowOf(const RunOutputs &out,
                                                 int64_t rows, int64_t row) {
  std::map<std::string, std::vector<double>> picked;
  for (const auto &[name, values] : out.arrays) {
    size_t per = values.size() / rows;
    picked[name].assign(values.begin() + row * per,
                        values.begin() + (row + 1) * per);
  }
  return picked;
}

TEST(Reproducible, ARowHasTheSameBitsInEveryBatch) {
  // Through the runtime with the tuner on: each rows bucket is tuned on
  // its own, and in default mode may pick another shape.
  RuntimeOptions options;
  options.device = DeviceKind::Cpu;
  options.autotune = 1;
  options.reproducible = 1;
  Runtime runtime(options);
  Norm norm =
      runtime.loadSpecFile(std::string(NORMC_SPECS_DIR) + "/layernorm.toml");
  dsl::Spec spec = loadShippedSpec("layernorm");
  const int64_t d = 256;
  CaseData alone = makeCase(spec, 1, d, 31);
  auto rowAlone = rowOf(runOnDevice(norm, "forward", inputsOf(alone)), 1, 0);
  ASSERT_FALSE(rowAlone.empty());
  for (int64_t rows : {2, 18, 300, 4097}) {
    CaseData batch = makeCase(spec, rows, d, 32 + rows);
    batch.gamma = alone.gamma;
    batch.beta = alone.beta;
    for (int64_t at : {int64_t(0), int64_t(17), rows - 1}) {
      if (at >= rows)
        continue;
      std::copy(alone.x.begin(), alone.x.end(), batch.x.begin() + at * d);
      RunOutputs out = runOnDevice(norm, "forward", inputsOf(batch));
      EXPECT_EQ(rowOf(out, rows, at), rowAlone)
          << "row " << at << " of " << rows;
    }
  }
}

TEST(Reproducible, PartialRowsDoNotDependOnTheGrid) {
  // A backward's first kernel as the launch facts give it, for a row
  // group of 4 threads and 32 rows a block.
  KernelLaunchInfo sums;
  sums.name = "sums";
  sums.blockSize = 128;
  sums.rowsPerBlock = 32;
  sums.vectorWidth = 4;
  sums.params = {{KernelParam::Kind::Partials, "dgamma", "f32", true}};
  KernelLaunchInfo finish = sums;
  finish.name = "finish";
  finish.rowsPerBlock = 1;
  finish.params = {{KernelParam::Kind::Partials, "dgamma", "f32", false}};
  const int64_t rows = 1 << 20, d = 4096;
  // The launch plans of a device of 132 SMs and of one of 108.
  auto partials = [&](int64_t maxGrid) {
    return partialRows({sums, finish},
                       planLaunches({sums, finish}, rows, d, maxGrid));
  };
  EXPECT_NE(partials(132 * 32), partials(108 * 32)); // by default
  sums.partialRows = kReproduciblePartialRows;
  EXPECT_EQ(partials(132 * 32), kReproduciblePartialRows);
  EXPECT_EQ(partials(108 * 32), kReproduciblePartialRows);
  EXPECT_EQ(partials(0), kReproduciblePartialRows);
  // Fewer rows than partial rows: a row each, and the finish adds those.
  std::vector<KernelLaunch> few = planLaunches({sums, finish}, 70, d, 0);
  EXPECT_EQ(few[0].grid, 3);
  EXPECT_EQ(few[1].rows, 70);
}

} // namespace
