//===- ExactArithmeticTest.cpp - NVRTC's kernels round as the IR says -----===//
//
// The CPU device runs the emitted source and must compute the GPU's bits,
// so the PTX NVRTC makes of it may hold no arithmetic whose result the CPU
// cannot reproduce: no approximations (rsqrt.approx, rcp.approx, ex2, ...),
// no flushing of subnormals (.ftz), no fma the IR did not ask for, and no
// float add, sub or mul without a rounding mode (ptxas, or the driver's JIT
// given the PTX, may fuse those). Scanned: every shipped spec's forward and
// backward programs and its fp8 outputs (row and block scales), at d fixed
// and at run time, for sm_80 and sm_90.
//
//===----------------------------------------------------------------------===//
#include "Tuner.h"
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Runtime/Nvrtc/Nvrtc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>

using namespace normc;

namespace {

/// Every spec shipped in specs/, by name, sorted.
std::vector<std::string> shippedSpecs() {
  std::vector<std::string> names;
  for (const auto &entry : std::filesystem::directory_iterator(NORMC_SPECS_DIR))
    if (entry.path().extension() == ".toml")
      names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// The PTX instructions whose result the CPU device would not reproduce.
std::vector<std::string> inexactInstructions(const std::string &ptx) {
  static const std::regex inexact(
      R"(^\s*(@!?%p\d+\s+)?()"
      R"([a-z0-9]+(\.[a-z0-9]+)*\.(approx|ftz)\b)"
      R"(|(rsqrt|ex2|lg2|sin|cos|tanh)\.|div\.full\.)"
      R"(|fma\.rn\.f(32|64)\b)"
      R"(|(add|sub|mul)\.f(32|64)\b))");
  std::vector<std::string> found;
  std::istringstream lines(ptx);
  for (std::string line; std::getline(lines, line);)
    if (std::regex_search(line, inexact))
      found.push_back(line);
  return found;
}

struct Case {
  std::string what, source, arch;
};

void addCases(std::vector<Case> &cases, const std::string &name,
              const dsl::Spec &spec, const std::vector<Program> &programs) {
  for (const Program &program : programs)
    for (std::optional<int64_t> d :
         {std::optional<int64_t>(), std::optional<int64_t>(3000),
          std::optional<int64_t>(65536)})
      for (const char *arch : {"sm_80", "sm_90"}) {
        std::string errors;
        std::unique_ptr<SpecCompilation> compilation =
            SpecCompilation::create(spec, d, errors, program);
        ASSERT_TRUE(compilation) << name << ": " << errors;
        std::optional<EmittedModule> module = compilation->emitModule(
            ScheduleOptions(ScheduleRequest(), nvrtc::smVersion(arch)), errors);
        ASSERT_TRUE(module) << name << ": " << errors;
        cases.push_back({name + " " + program.str() + " d " +
                             (d ? std::to_string(*d) : "at run time") + " " +
                             arch,
                         module->source, arch});
      }
}

TEST(ExactArithmetic, NvrtcKernelsHoldOnlyCorrectlyRoundedArithmetic) {
  std::vector<Case> cases;
  std::vector<std::string> shipped = shippedSpecs();
  ASSERT_GE(shipped.size(), 11u);
  for (const std::string &name : shipped) {
    dsl::SpecParseResult parsed =
        dsl::parseSpecFile(std::string(NORMC_SPECS_DIR) + "/" + name + ".toml");
    ASSERT_TRUE(parsed.spec);
    std::vector<Program> programs =
        Program::backwards(parsed.spec->residualAdd.value);
    programs.insert(programs.begin(), Program::forward());
    addCases(cases, name, *parsed.spec, programs);
  }
  // Reproducible mode's tree, forward and backward (a cluster at d = 65536
  // on sm_90).
  for (const char *name : {"layernorm", "llama_rmsnorm"}) {
    dsl::SpecParseResult parsed =
        dsl::parseSpecFile(std::string(NORMC_SPECS_DIR) + "/" + name + ".toml");
    ASSERT_TRUE(parsed.spec);
    parsed.spec->reproducible.value = true;
    std::vector<Program> programs =
        Program::backwards(parsed.spec->residualAdd.value);
    programs.insert(programs.begin(), Program::forward());
    addCases(cases, std::string(name) + " reproducible", *parsed.spec,
             programs);
  }
  // A sigmoid gate's exp in f64 (the shipped gates compute it in f32).
  {
    dsl::SpecParseResult parsed = dsl::parseSpecFile(
        std::string(NORMC_SPECS_DIR) + "/qwen3_next_gated_rmsnorm.toml");
    ASSERT_TRUE(parsed.spec);
    parsed.spec->accumulate.value = dsl::DType::F64;
    parsed.spec->gateActivation.value = dsl::GateActivation::Sigmoid;
    addCases(cases, "sigmoid gate f64", *parsed.spec,
             {Program::forward(), Program::gradient(false)});
  }
  // The fp8 outputs (forward only: an fp8 output has no backward).
  for (auto [name, output, block] :
       {std::tuple<const char *, dsl::DType, int>{"llama_rmsnorm",
                                                  dsl::DType::F8E4M3, 0},
        {"layernorm", dsl::DType::F8E5M2, 32},
        {"llama_rmsnorm", dsl::DType::I8, 0}}) {
    dsl::SpecParseResult parsed =
        dsl::parseSpecFile(std::string(NORMC_SPECS_DIR) + "/" + name + ".toml");
    ASSERT_TRUE(parsed.spec);
    parsed.spec->output.value = output;
    if (block) {
      parsed.spec->quantizeScale.value = dsl::QuantizeScale::Block;
      parsed.spec->quantizeBlock.value = block;
    }
    addCases(cases, std::string(name) + " " + std::string(toString(output)),
             *parsed.spec, {Program::forward()});
  }
  std::vector<nvrtc::Result> results(cases.size());
  api::forEachInParallel(cases.size(), [&](size_t i) {
    nvrtc::Options options;
    options.arch = cases[i].arch;
    options.target = nvrtc::Target::Ptx;
    results[i] = nvrtc::compile(cases[i].source, "k.cu", options);
  });
  for (size_t i = 0; i < cases.size(); ++i) {
    ASSERT_TRUE(results[i].ok) << cases[i].what << ": " << results[i].error;
    std::vector<std::string> inexact = inexactInstructions(results[i].binary);
    EXPECT_TRUE(inexact.empty())
        << cases[i].what << ": " << inexact.size()
        << " inexact instructions, the first: " << inexact.front();
  }
}

// The scan itself: what it must find and what it must let through.
TEST(ExactArithmetic, TheScanFindsWhatTheCpuCannotReproduce) {
  for (const char *line :
       {"\trsqrt.approx.f32 \t%f2, %f1;", "\tsqrt.approx.ftz.f32 %f2, %f1;",
        "\trcp.approx.ftz.f64 %fd2, %fd1;", "\tfma.rn.f32 %f4, %f1, %f2, %f3;",
        "\tadd.f32 %f3, %f1, %f2;", "\t@%p1 mul.f64 %fd3, %fd1, %fd2;",
        "\tex2.approx.f32 %f2, %f1;", "\tadd.ftz.f32 %f3, %f1, %f2;",
        "\tdiv.full.f32 %f3, %f1, %f2;"})
    EXPECT_EQ(inexactInstructions(line).size(), 1u) << line;
  for (const char *line :
       {"\tadd.rn.f32 %f3, %f1, %f2;", "\tmul.rn.f64 %fd3, %fd1, %fd2;",
        "\tsqrt.rn.f32 %f2, %f1;", "\tdiv.rn.f32 %f3, %f1, %f2;",
        "\trcp.rn.f64 %fd2, %fd1;", "\t@!%p2 bra $L__BB0_4;",
        "\tfma.rn.bf16 %rs3, %rs1, %rs4, %rs2;",
        "\tcvt.rn.satfinite.e4m3x2.f32 %rs1, %f2, %f1;",
        "\tadd.s32 %r3, %r1, %r2;", "\tmul.wide.s32 %rd2, %r1, 4;"})
    EXPECT_TRUE(inexactInstructions(line).empty()) << line;
}

} // namespace
