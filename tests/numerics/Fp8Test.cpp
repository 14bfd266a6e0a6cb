//===- Fp8Test.cpp - fp8 outputs keep contract section 7 ------------------===//
//
// Every shipped spec turned fp8 (both formats, per-row and static scales)
// runs on the CPU device over the d x rows matrix, every schedule
// candidate of a few of them, and the edge cases: rows of zeros (scale 1),
// NaN rows and features, saturation under a static scale. Each value must
// be the reference's rounding of y_ref / s, or a neighbour within 2^-12 of
// a midpoint, with s the kernel's own scale.
//
//===----------------------------------------------------------------------===//
#include "NumericsUtil.h"

#include "normc/Frontend/SpecCompiler.h"
#include "normc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

using namespace normc;
using namespace normc::test;

namespace {

using Format = dsl::DType;
using Mode = dsl::QuantizeScale;

dsl::Spec turnedFp8(const std::string &name, Format format, Mode mode) {
  dsl::Spec spec = loadShippedSpec(name);
  spec.output.value = format;
  spec.quantizeScale.value = mode;
  return spec;
}

std::string caseName(Format format, Mode mode) {
  return std::string(dsl::toString(format)) + "_" +
         std::string(dsl::toString(mode));
}

/// The kernels of `spec` for d at run time (or fixed at `cols`) with the
/// heuristic schedule, compiled for the CPU device.
struct Compiled {
  EmittedModule emitted;
  cpu::CpuModule module;
};
Compiled compile(const dsl::Spec &spec, std::optional<int64_t> cols = {}) {
  std::string errors;
  auto compilation = SpecCompilation::create(spec, cols, errors);
  EXPECT_TRUE(compilation) << errors;
  std::optional<EmittedModule> emitted = compilation->emitModule({}, errors);
  EXPECT_TRUE(emitted) << errors;
  return {*emitted,
          cpu::CpuModule::compile(emitted->source, kernelCompileOptions())};
}

Grade runCase(const dsl::Spec &spec, const Compiled &compiled,
              const CaseData &data) {
  RunOptions options;
  options.launch.laneOrder = cpu::LaneOrder::Random;
  RunOutputs out = runModuleOnCpu(spec, compiled.emitted.kernels,
                                  compiled.module, inputsOf(data), options);
  return grade(spec, data, out);
}

using SuiteParam = std::tuple<const char *, Format, Mode>;
class Fp8Suite : public ::testing::TestWithParam<SuiteParam> {};

// The d x rows matrix through one kernel with d at run time, and d = 4096
// fixed (the row kept in registers).
TEST_P(Fp8Suite, KeepsSection7) {
  auto [name, format, mode] = GetParam();
  dsl::Spec spec = turnedFp8(name, format, mode);
  spec.saveStats.value = true;
  Compiled runtimeD = compile(spec);
  size_t values = 0, exact = 0;
  uint64_t seed = 1;
  for (int64_t d : kSuiteCols)
    for (int64_t rows : kSuiteRows) {
      if (d * rows > 4096 * 257)
        continue; // the widest rows once, not 257 times
      CaseData data = makeCase(spec, rows, d, seed++);
      Grade g = runCase(spec, runtimeD, data);
      EXPECT_LE(g.worst(), 1.0)
          << "d " << d << ", rows " << rows << ": " << g.str();
      values += g.fp8Values, exact += g.fp8Exact;
    }
  Compiled fixed = compile(spec, 4096);
  CaseData data = makeCase(spec, 33, 4096, seed);
  Grade g = runCase(spec, fixed, data);
  EXPECT_LE(g.worst(), 1.0) << "d 4096 fixed: " << g.str();
  values += g.fp8Values, exact += g.fp8Exact;
  RecordProperty("fp8_values", std::to_string(values));
  RecordProperty("fp8_exact", std::to_string(exact));
  std::printf("%s %s: %zu of %zu fp8 values are the reference's rounding\n",
              name, caseName(format, mode).c_str(), exact, values);
}

INSTANTIATE_TEST_SUITE_P(
    Shipped, Fp8Suite,
    ::testing::Combine(::testing::ValuesIn(kShippedSpecs),
                       ::testing::Values(Format::F8E4M3, Format::F8E5M2),
                       ::testing::Values(Mode::Row, Mode::Static)),
    [](const auto &info) {
      return std::string(std::get<0>(info.param)) + "_" +
             caseName(std::get<1>(info.param), std::get<2>(info.param));
    });

// Every schedule the tuner may pick, for d fixed and at run time.
using CandidateParam = std::tuple<const char *, Format, Mode, int64_t, bool>;
class Fp8Candidates : public ::testing::TestWithParam<CandidateParam> {};

TEST_P(Fp8Candidates, EveryOneKeepsSection7) {
  auto [name, format, mode, d, specialize] = GetParam();
  dsl::Spec spec = turnedFp8(name, format, mode);
  std::string errors;
  auto compilation = SpecCompilation::create(
      spec, specialize ? std::optional<int64_t>(d) : std::nullopt, errors);
  ASSERT_TRUE(compilation) << errors;
  CandidateKernels candidates =
      compileCandidates(*compilation, spec.name.value);
  CaseData data = makeCase(spec, 5, d, 29);
  EXPECT_GT(
      expectEveryCandidateKeepsTheBound(spec, candidates, data, specialize), 1);
}

INSTANTIATE_TEST_SUITE_P(
    Shipped, Fp8Candidates,
    ::testing::Values(
        CandidateParam{"llama_rmsnorm", Format::F8E4M3, Mode::Row, 1000, true},
        CandidateParam{"llama_rmsnorm", Format::F8E4M3, Mode::Row, 4097, false},
        CandidateParam{"layernorm", Format::F8E5M2, Mode::Static, 4097, true},
        CandidateParam{"fused_add_rmsnorm", Format::F8E4M3, Mode::Static, 64,
                       true},
        CandidateParam{"gemma_rmsnorm", Format::F8E5M2, Mode::Row, 1000,
                       false}),
    [](const auto &info) {
      return std::string(std::get<0>(info.param)) + "_" +
             caseName(std::get<1>(info.param), std::get<2>(info.param)) + "_" +
             std::to_string(std::get<3>(info.param)) +
             (std::get<4>(info.param) ? "_fixed" : "_runtime");
    });

// The edge cases of section 7, on RMSNorm with d at run time.
class Fp8Edges : public ::testing::TestWithParam<Format> {
protected:
  RunOutputs run(const dsl::Spec &spec, const CaseData &data) {
    Compiled compiled = compile(spec);
    Grade g = runCase(spec, compiled, data);
    EXPECT_LE(g.worst(), 1.0) << g.str();
    return runModuleOnCpu(spec, compiled.emitted.kernels, compiled.module,
                          inputsOf(data));
  }
};

TEST_P(Fp8Edges, RowOfZerosHasScaleOne) {
  dsl::Spec spec = turnedFp8("llama_rmsnorm", GetParam(), Mode::Row);
  CaseData data = makeCase(spec, 3, 300, 5);
  std::fill(data.x.begin() + 300, data.x.begin() + 600, 0.0);
  RunOutputs out = run(spec, data);
  EXPECT_EQ(out.scale[1], 1.0);
  for (int64_t i = 300; i < 600; ++i)
    ASSERT_EQ(out.y[i], 0.0) << i;
  EXPECT_NE(out.scale[0], 1.0);
}

TEST_P(Fp8Edges, NaNRowStaysNaNWithScaleOne) {
  dsl::Spec spec = turnedFp8("layernorm", GetParam(), Mode::Row);
  CaseData data = makeCase(spec, 3, 300, 6);
  data.x[2 * 300 + 7] = NAN; // its statistics, and so all of y, are NaN
  RunOutputs out = run(spec, data);
  EXPECT_EQ(out.scale[2], 1.0); // no number to take the amax of
  for (int64_t i = 600; i < 900; ++i)
    ASSERT_TRUE(std::isnan(out.y[i])) << i;
  EXPECT_FALSE(std::isnan(out.y[0]));
}

TEST_P(Fp8Edges, NaNFeatureIsIgnoredByTheAmax) {
  dsl::Spec spec = turnedFp8("llama_rmsnorm", GetParam(), Mode::Row);
  CaseData data = makeCase(spec, 4, 300, 7);
  data.gamma[11] = NAN;
  RunOutputs out = run(spec, data);
  for (int64_t row = 0; row < 4; ++row) {
    EXPECT_TRUE(std::isfinite(out.scale[row])) << row;
    EXPECT_TRUE(std::isnan(out.y[row * 300 + 11])) << row;
    EXPECT_FALSE(std::isnan(out.y[row * 300 + 12])) << row;
  }
}

TEST_P(Fp8Edges, StaticScaleSaturates) {
  dsl::Spec spec = turnedFp8("llama_rmsnorm", GetParam(), Mode::Static);
  CaseData data = makeCase(spec, 3, 300, 8);
  data.staticScale = {std::ldexp(1.0, -24)};
  RunOutputs out = run(spec, data);
  double max = dsl::largestFinite(GetParam());
  size_t saturated = 0;
  for (double q : out.y)
    saturated += std::fabs(q) == max;
  EXPECT_GT(saturated, out.y.size() * 9 / 10);
  EXPECT_GT(out.amax[0], 0.5); // the amax is y's, not the quotients'
}

INSTANTIATE_TEST_SUITE_P(Formats, Fp8Edges,
                         ::testing::Values(Format::F8E4M3, Format::F8E5M2),
                         [](const auto &info) {
                           return std::string(dsl::toString(info.param));
                         });

} // namespace
