//===- PackCompileTest.cpp - Every schedule candidate compiles for a GPU --===//
//
// The tuner compiles every candidate on the GPU it runs on; here NVRTC
// compiles each one to a CUBIN for sm_90 and ptxas must report no spills.
//
//===----------------------------------------------------------------------===//
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Runtime/BuildPack.h"
#include "normc/Runtime/Nvrtc.h"

#include <gtest/gtest.h>

using namespace normc;

namespace {

/// `output`: the spec turned to this (fp8) output type.
void expectEveryCandidateCompiles(const char *name, std::optional<int64_t> cols,
                                  std::optional<dsl::DType> output = {}) {
  dsl::SpecParseResult parsed =
      dsl::parseSpecFile(std::string(NORMC_SPECS_DIR) + "/" + name + ".toml");
  ASSERT_TRUE(parsed.spec);
  if (output)
    parsed.spec->output.value = *output;
  std::string errors;
  std::optional<Pack> pack = buildPack(*parsed.spec, cols, errors);
  ASSERT_TRUE(pack) << errors;
  EXPECT_EQ(errors, "");
  EXPECT_GT(pack->candidates.size(), 10u);
  nvrtc::Options options;
  options.arch = "sm_90";
  options.target = nvrtc::Target::Cubin;
  for (const PackCandidate &candidate : pack->candidates) {
    nvrtc::Result result = nvrtc::compile(candidate.source, "k.cu", options);
    EXPECT_TRUE(result.ok) << candidate.schedule.str() << ": " << result.error
                           << "\n"
                           << result.log;
    EXPECT_EQ(nvrtc::spillBytes(result.log), 0) << candidate.schedule.str();
  }
}

TEST(PackCompile, FusedAddRmsNormAnyD) {
  expectEveryCandidateCompiles("fused_add_rmsnorm", std::nullopt);
}

TEST(PackCompile, PartialLayerNormFixedD) {
  expectEveryCandidateCompiles("partial_layernorm", 4096);
}

TEST(PackCompile, Fp8LayerNormFixedD) {
  expectEveryCandidateCompiles("layernorm", 4096, dsl::DType::F8E4M3);
}

TEST(PackCompile, Fp8FusedAddRmsNormAnyD) {
  expectEveryCandidateCompiles("fused_add_rmsnorm", std::nullopt,
                               dsl::DType::F8E5M2);
}

} // namespace
