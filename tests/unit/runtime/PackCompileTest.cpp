//===- PackCompileTest.cpp - Every schedule candidate compiles for a GPU --===//
//
// The tuner compiles every candidate on the GPU it runs on; here NVRTC
// compiles each one to a CUBIN for sm_90 and ptxas must report no spills.
// By default: clusters of the widest rows, fp8 outputs with row and block
// scales, d fixed and at run time, and the heuristic's kernels at a few d;
// the other specs, outputs and d under scripts/test.sh --full (the `Sweep`
// tests).
//
//===----------------------------------------------------------------------===//
#include "Tuner.h"
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Runtime/Jit/BuildPack.h"
#include "normc/Runtime/Nvrtc/Nvrtc.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace normc;

namespace {

/// `output`: the spec turned to this (fp8) output type.
/// `arch`: the candidates of that SM version (clusters on 90) too;
/// `storage`: every tensor of the spec in that type.
void expectEveryCandidateCompiles(const char *name, std::optional<int64_t> d,
                                  std::optional<dsl::DType> output = {},
                                  int64_t block = 0, int arch = 0,
                                  std::optional<dsl::DType> storage = {}) {
  dsl::SpecParseResult parsed =
      dsl::parseSpecFile(std::string(NORMC_SPECS_DIR) + "/" + name + ".toml");
  ASSERT_TRUE(parsed.spec);
  if (storage)
    parsed.spec->input.value = parsed.spec->params.value =
        parsed.spec->output.value = *storage;
  if (output)
    parsed.spec->output.value = *output;
  if (block) {
    parsed.spec->quantizeScale.value = dsl::QuantizeScale::Block;
    parsed.spec->quantizeBlock.value = static_cast<double>(block);
  }
  std::string errors;
  std::optional<Pack> pack = buildPack(*parsed.spec, d, errors, arch);
  ASSERT_TRUE(pack) << errors;
  EXPECT_EQ(errors, "");
  EXPECT_GT(pack->candidates.size(), 10u);
  nvrtc::Options options;
  options.arch = "sm_90";
  options.target = nvrtc::Target::Cubin;
  std::vector<nvrtc::Result> results(pack->candidates.size());
  api::forEachInParallel(results.size(), [&](size_t i) {
    results[i] = nvrtc::compile(pack->candidates[i].source, "k.cu", options);
  });
  for (size_t i = 0; i < results.size(); ++i) {
    const Schedule &schedule = pack->candidates[i].schedule;
    EXPECT_TRUE(results[i].ok)
        << schedule.str() << ": " << results[i].error << "\n"
        << results[i].log;
    EXPECT_EQ(nvrtc::spillBytes(results[i].log), 0) << schedule.str();
  }
  if (arch >= 90) {
    EXPECT_TRUE(std::any_of(pack->candidates.begin(), pack->candidates.end(),
                            [](const PackCandidate &c) {
                              return c.schedule.strategy == Strategy::Cluster;
                            }));
  }
}

TEST(Sweep, PackCompileFusedAddRmsNormAnyD) {
  expectEveryCandidateCompiles("fused_add_rmsnorm", std::nullopt);
}

TEST(Sweep, PackCompilePartialLayerNormFixedD) {
  expectEveryCandidateCompiles("partial_layernorm", 4096);
}

// The widest rows: every candidate for sm_90, clusters of 2 to 8 blocks
// among them, in bf16 and f32 rows.
TEST(PackCompile, ClustersOfTheWidestRows) {
  expectEveryCandidateCompiles("llama_rmsnorm", 262144, {}, 0, 90);
  expectEveryCandidateCompiles("layernorm", 262144, {}, 0, 90, dsl::DType::F32);
}

// The kernel users get without tuning (the heuristic's schedule for the
// GPU's architecture) never spills, for any shipped spec and these d, on
// sm_80 and sm_90.
void expectDefaultKernelsNeverSpill(const std::vector<int64_t> &sweep) {
  const char *specs[] = {
      "layernorm",    "llama_rmsnorm",     "gemma_rmsnorm",    "prmsnorm",
      "t5_layernorm", "fused_add_rmsnorm", "partial_layernorm"};
  struct Case {
    std::string what, source, arch;
  };
  std::vector<Case> cases;
  for (const char *name : specs) {
    dsl::SpecParseResult parsed =
        dsl::parseSpecFile(std::string(NORMC_SPECS_DIR) + "/" + name + ".toml");
    ASSERT_TRUE(parsed.spec);
    for (int64_t d : sweep)
      for (const char *arch : {"sm_80", "sm_90"}) {
        std::string errors;
        std::optional<EmittedKernel> kernel = emitSpecKernel(
            *parsed.spec, d,
            ScheduleOptions(ScheduleRequest(), nvrtc::smVersion(arch)), errors);
        ASSERT_TRUE(kernel) << name << " d " << d << ": " << errors;
        cases.push_back({std::string(name) + " d " + std::to_string(d) + " " +
                             arch + " " + kernel->info.name,
                         kernel->source, arch});
      }
  }
  std::vector<std::string> failures(cases.size());
  api::forEachInParallel(cases.size(), [&](size_t i) {
    nvrtc::Options options;
    options.arch = cases[i].arch;
    options.target = nvrtc::Target::Cubin;
    nvrtc::Result result = nvrtc::compile(cases[i].source, "k.cu", options);
    if (!result.ok)
      failures[i] = result.error;
    else if (long spilled = nvrtc::spillBytes(result.log))
      failures[i] = std::to_string(spilled) + " bytes spilled";
  });
  for (size_t i = 0; i < cases.size(); ++i)
    EXPECT_EQ(failures[i], "") << cases[i].what;
}

// Each strategy of the heuristic: one warp, a block, rows re-read from
// global memory or kept in shared memory, clusters.
TEST(DefaultKernels, NeverSpill) {
  expectDefaultKernelsNeverSpill({1, 3000, 16384, 65536, 262144});
}

TEST(Sweep, DefaultKernelsNeverSpillAtEveryD) {
  expectDefaultKernelsNeverSpill({100, 1024, 4096, 8192, 12288, 24576, 32768,
                                  40960, 49152, 57344, 98304, 131072});
}

TEST(PackCompile, Fp8LayerNormFixedD) {
  expectEveryCandidateCompiles("layernorm", 4096, dsl::DType::F8E4M3);
}

TEST(PackCompile, Fp8FusedAddRmsNormAnyD) {
  expectEveryCandidateCompiles("fused_add_rmsnorm", std::nullopt,
                               dsl::DType::F8E5M2);
}

TEST(PackCompile, Fp8BlockScalesFixedAndAnyD) {
  expectEveryCandidateCompiles("llama_rmsnorm", 4096, dsl::DType::F8E4M3, 128);
  expectEveryCandidateCompiles("layernorm", std::nullopt, dsl::DType::F8E5M2,
                               16);
}

} // namespace

// On sm_90 the widest rows of every shipped spec are spread over a cluster
// (x is read once, not twice as from global memory); sm_80 has no clusters.
TEST(DefaultKernels, WidestRowsUseAClusterOnSm90) {
  for (const char *name :
       {"layernorm", "llama_rmsnorm", "gemma_rmsnorm", "prmsnorm",
        "t5_layernorm", "fused_add_rmsnorm", "partial_layernorm"}) {
    dsl::SpecParseResult parsed =
        dsl::parseSpecFile(std::string(NORMC_SPECS_DIR) + "/" + name + ".toml");
    ASSERT_TRUE(parsed.spec);
    std::string errors;
    std::optional<EmittedKernel> sm90 = emitSpecKernel(
        *parsed.spec, 262144, ScheduleOptions(ScheduleRequest(), 90), errors);
    std::optional<EmittedKernel> sm80 = emitSpecKernel(
        *parsed.spec, 262144, ScheduleOptions(ScheduleRequest(), 80), errors);
    ASSERT_TRUE(sm90 && sm80) << errors;
    EXPECT_GT(sm90->info.clusterSize, 1) << name;
    EXPECT_NE(sm90->source.find("__cluster_dims__"), std::string::npos);
    EXPECT_EQ(sm80->info.clusterSize, 1) << name;
  }
}
