//===- Fp8Test.cpp - fp8 outputs keep the promise of docs/fp8.md ----------===//
//
// Every shipped spec turned fp8 (both formats; per-row, per-block and
// static scales) runs on the CPU device over the d x rows matrix, every
// schedule candidate of a few of them, and the edge cases: rows and blocks
// of zeros (scale 1), ragged last blocks, NaN rows and features, saturation
// under a static scale. Each value must
// be the reference's rounding of y_ref / s, or a neighbour within 2^-12 of
// a midpoint, with s the kernel's own scale. By default each spec runs with
// one format and scale mode, and three of the candidate cases; every
// combination under scripts/test.sh --full.
//
//===----------------------------------------------------------------------===//
#include "NumericsUtil.h"

#include "normc/Frontend/SpecCompiler.h"
#include "normc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

using namespace normc;
using namespace normc::test;

namespace {

using Format = dsl::DType;
using Mode = dsl::QuantizeScale;

/// With Mode::Block, blocks of `block` features.
dsl::Spec turnedFp8(const std::string &name, Format format, Mode mode,
                    int64_t block = 128) {
  dsl::Spec spec = loadShippedSpec(name);
  spec.output.value = format;
  spec.quantizeScale.value = mode;
  // An fp8 y is gated before it is quantized: there is no rounded y to gate.
  if (spec.gate.value == dsl::Gate::AfterRounded)
    spec.gate.value = dsl::Gate::After;
  if (mode == Mode::Block)
    spec.quantizeBlock.value = static_cast<double>(block);
  return spec;
}

std::string caseName(Format format, Mode mode) {
  return std::string(dsl::toString(format)) + "_" +
         std::string(dsl::toString(mode));
}

/// The kernels of `spec` for d at run time (or fixed at `d`) with the
/// heuristic schedule, compiled for the CPU device.
struct Compiled {
  EmittedModule emitted;
  cpu::CpuModule module;
};
Compiled compile(const dsl::Spec &spec, std::optional<int64_t> d = {}) {
  std::string errors;
  auto compilation = SpecCompilation::create(spec, d, errors);
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
  for (int64_t d : kSuiteD)
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

std::vector<SuiteParam> everySuiteCase() {
  std::vector<SuiteParam> all;
  for (const char *name : kShippedSpecs)
    for (Format format : {Format::F8E4M3, Format::F8E5M2})
      for (Mode mode : {Mode::Row, Mode::Block, Mode::Static})
        all.emplace_back(name, format, mode);
  // int8, per row or static (docs/fp8.md).
  for (const char *name : kShippedSpecs)
    for (Mode mode : {Mode::Row, Mode::Static})
      all.emplace_back(name, Format::I8, mode);
  return all;
}

/// By default each spec once in fp8, the formats and the scale modes
/// rotating, and once in int8, the modes alternating.
bool representativeSuiteCase(size_t i, const SuiteParam &) {
  const size_t fp8Cases = std::size(kShippedSpecs) * 6;
  if (i >= fp8Cases)
    return (i - fp8Cases) % 2 == (i - fp8Cases) / 2 % 2;
  size_t spec = i / 6, format = i / 3 % 2, mode = i % 3;
  return format == spec % 2 && mode == spec % 3;
}

std::string suiteCaseName(const ::testing::TestParamInfo<SuiteParam> &info) {
  return std::string(std::get<0>(info.param)) + "_" +
         caseName(std::get<1>(info.param), std::get<2>(info.param));
}

NORMC_INSTANTIATE_SWEEP(Fp8Suite, everySuiteCase(), representativeSuiteCase,
                        suiteCaseName);

// Every schedule the tuner may pick, for d fixed and at run time (block
// scales with the smallest and the largest block).
using CandidateParam =
    std::tuple<const char *, Format, Mode, int64_t, bool, int64_t>;
class Fp8Candidates : public ::testing::TestWithParam<CandidateParam> {};

TEST_P(Fp8Candidates, EveryOneKeepsSection7) {
  auto [name, format, mode, d, specialize, block] = GetParam();
  dsl::Spec spec = turnedFp8(name, format, mode, block);
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

const CandidateParam kCandidateCases[] = {
    {"llama_rmsnorm", Format::F8E4M3, Mode::Row, 1000, true, 0},
    {"layernorm", Format::F8E5M2, Mode::Static, 4097, true, 0},
    {"fused_add_rmsnorm", Format::F8E4M3, Mode::Block, 3000, true, 128},
    {"llama_rmsnorm", Format::F8E4M3, Mode::Row, 4097, false, 0},
    {"fused_add_rmsnorm", Format::F8E4M3, Mode::Static, 64, true, 0},
    {"gemma_rmsnorm", Format::F8E5M2, Mode::Row, 1000, false, 0},
    {"llama_rmsnorm", Format::F8E4M3, Mode::Block, 1000, true, 16},
    {"layernorm", Format::F8E5M2, Mode::Block, 4097, false, 1024},
    {"llama_rmsnorm", Format::I8, Mode::Row, 1000, true, 0},
    {"layernorm", Format::I8, Mode::Static, 4097, false, 0}};

/// By default the first three (each fp8 scale mode and format once) and
/// int8 per row.
bool representativeCandidateCase(size_t i, const CandidateParam &) {
  return i < 3 || i == 8;
}

std::string
candidateCaseName(const ::testing::TestParamInfo<CandidateParam> &info) {
  const int64_t block = std::get<5>(info.param);
  return std::string(std::get<0>(info.param)) + "_" +
         caseName(std::get<1>(info.param), std::get<2>(info.param)) +
         (block ? std::to_string(block) : "") + "_" +
         std::to_string(std::get<3>(info.param)) +
         (std::get<4>(info.param) ? "_fixed" : "_runtime");
}

std::vector<CandidateParam> everyCandidateCase() {
  return {std::begin(kCandidateCases), std::end(kCandidateCases)};
}

NORMC_INSTANTIATE_SWEEP(Fp8Candidates, everyCandidateCase(),
                        representativeCandidateCase, candidateCaseName);

// The edge cases of docs/fp8.md, on RMSNorm with d at run time.
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
  EXPECT_EQ(out["scale"][1], 1.0);
  for (int64_t i = 300; i < 600; ++i)
    ASSERT_EQ(out["y"][i], 0.0) << i;
  EXPECT_NE(out["scale"][0], 1.0);
}

TEST_P(Fp8Edges, NaNRowStaysNaNWithScaleOne) {
  dsl::Spec spec = turnedFp8("layernorm", GetParam(), Mode::Row);
  CaseData data = makeCase(spec, 3, 300, 6);
  data.x[2 * 300 + 7] = NAN; // its statistics, and so all of y, are NaN
  RunOutputs out = run(spec, data);
  EXPECT_EQ(out["scale"][2], 1.0); // no number to take the amax of
  for (int64_t i = 600; i < 900; ++i)
    ASSERT_TRUE(std::isnan(out["y"][i])) << i;
  EXPECT_FALSE(std::isnan(out["y"][0]));
}

TEST_P(Fp8Edges, NaNFeatureIsIgnoredByTheAmax) {
  dsl::Spec spec = turnedFp8("llama_rmsnorm", GetParam(), Mode::Row);
  CaseData data = makeCase(spec, 4, 300, 7);
  data.gamma[11] = NAN;
  RunOutputs out = run(spec, data);
  for (int64_t row = 0; row < 4; ++row) {
    EXPECT_TRUE(std::isfinite(out["scale"][row])) << row;
    EXPECT_TRUE(std::isnan(out["y"][row * 300 + 11])) << row;
    EXPECT_FALSE(std::isnan(out["y"][row * 300 + 12])) << row;
  }
}

TEST_P(Fp8Edges, StaticScaleSaturates) {
  dsl::Spec spec = turnedFp8("llama_rmsnorm", GetParam(), Mode::Static);
  CaseData data = makeCase(spec, 3, 300, 8);
  data.staticScale = {std::ldexp(1.0, -24)};
  RunOutputs out = run(spec, data);
  double max = dsl::largestFinite(GetParam());
  size_t saturated = 0;
  for (double q : out["y"])
    saturated += std::fabs(q) == max;
  EXPECT_GT(saturated, out["y"].size() * 9 / 10);
  EXPECT_GT(out["amax"][0], 0.5); // the amax is y's, not the quotients'
}

TEST_P(Fp8Edges, BlockOfZerosHasScaleOne) {
  // d = 300 in blocks of 64: four whole blocks and a ragged one of 44.
  dsl::Spec spec = turnedFp8("llama_rmsnorm", GetParam(), Mode::Block, 64);
  CaseData data = makeCase(spec, 3, 300, 9);
  std::fill(data.x.begin() + 300 + 64, data.x.begin() + 300 + 128, 0.0);
  RunOutputs out = run(spec, data);
  ASSERT_EQ(out["scale"].size(), 3u * 5u);
  EXPECT_EQ(out["scale"][5 + 1], 1.0);
  for (int64_t i = 300 + 64; i < 300 + 128; ++i)
    ASSERT_EQ(out["y"][i], 0.0) << i;
  for (int64_t group : {0, 2, 3, 4}) {
    EXPECT_NE(out["scale"][5 + group], 1.0) << group;
  }
}

TEST_P(Fp8Edges, NaNRowHasBlockScalesOfOne) {
  dsl::Spec spec = turnedFp8("layernorm", GetParam(), Mode::Block, 32);
  CaseData data = makeCase(spec, 2, 100, 10); // blocks of 32, 32, 32, 4
  data.x[100 + 3] = NAN;
  RunOutputs out = run(spec, data);
  ASSERT_EQ(out["scale"].size(), 2u * 4u);
  for (int64_t group = 0; group < 4; ++group) {
    EXPECT_EQ(out["scale"][4 + group], 1.0) << group;
    EXPECT_NE(out["scale"][group], 1.0) << group;
  }
}

TEST_P(Fp8Edges, BlockScalesDifferFromTheRowScale) {
  // A row whose magnitude grows along d: each block has its own scale, and
  // its largest quotient reaches FP8_MAX (within rounding).
  dsl::Spec spec = turnedFp8("llama_rmsnorm", GetParam(), Mode::Block, 16);
  CaseData data = makeCase(spec, 1, 64, 11);
  for (int64_t i = 0; i < 64; ++i)
    data.x[i] = std::ldexp(1.0 + (i % 7) / 8.0, static_cast<int>(i / 16));
  std::fill(data.gamma.begin(), data.gamma.end(), 1.0);
  RunOutputs out = run(spec, data);
  ASSERT_EQ(out["scale"].size(), 4u);
  double max = dsl::largestFinite(GetParam());
  for (int64_t group = 0; group < 4; ++group) {
    if (group) {
      EXPECT_NEAR(out["scale"][group] / out["scale"][group - 1], 2.0, 0.02);
    }
    double largest = 0;
    for (int64_t i = group * 16; i < group * 16 + 16; ++i)
      largest = std::max(largest, std::fabs(out["y"][i]));
    EXPECT_EQ(largest, max) << group;
  }
}

// int8 (docs/fp8.md): s = amax / 127, q = round(y / s) to nearest even,
// clamped to [-128, 127], NaN to 0.
dsl::Spec turnedInt8(const std::string &name, Mode mode) {
  return turnedFp8(name, Format::I8, mode);
}

TEST(Int8, RowScalesReach127AndZerosHaveScaleOne) {
  dsl::Spec spec = turnedInt8("llama_rmsnorm", Mode::Row);
  CaseData data = makeCase(spec, 3, 300, 21);
  std::fill(data.x.begin() + 300, data.x.begin() + 600, 0.0);
  Compiled compiled = compile(spec);
  Grade g = runCase(spec, compiled, data);
  EXPECT_LE(g.worst(), 1.0) << g.str();
  EXPECT_EQ(g.fp8Wrong, 0u);
  RunOutputs out = runModuleOnCpu(spec, compiled.emitted.kernels,
                                  compiled.module, inputsOf(data));
  EXPECT_EQ(out["scale"][1], 1.0);
  for (int64_t row : {0, 2}) {
    double largest = 0;
    for (int64_t i = row * 300; i < row * 300 + 300; ++i) {
      ASSERT_EQ(out["y"][i], std::nearbyint(out["y"][i])) << i;
      largest = std::max(largest, std::fabs(out["y"][i]));
    }
    EXPECT_EQ(largest, 127.0) << row;
  }
}

TEST(Int8, NaNBecomesZeroAndAStaticScaleClamps) {
  dsl::Spec spec = turnedInt8("llama_rmsnorm", Mode::Static);
  CaseData data = makeCase(spec, 3, 300, 22);
  data.gamma[11] = NAN;
  data.staticScale = {std::ldexp(1.0, -20)};
  Compiled compiled = compile(spec);
  Grade g = runCase(spec, compiled, data);
  EXPECT_LE(g.worst(), 1.0) << g.str();
  RunOutputs out = runModuleOnCpu(spec, compiled.emitted.kernels,
                                  compiled.module, inputsOf(data));
  size_t low = 0, high = 0;
  for (int64_t row = 0; row < 3; ++row) {
    EXPECT_EQ(out["y"][row * 300 + 11], 0.0) << row;
    EXPECT_TRUE(std::isfinite(out["amax"][row])) << row;
  }
  for (double q : out["y"]) {
    low += q == -128.0;
    high += q == 127.0;
    ASSERT_GE(q, -128.0);
    ASSERT_LE(q, 127.0);
  }
  EXPECT_GT(low, out["y"].size() / 3);
  EXPECT_GT(high, out["y"].size() / 3);
}

// The group table holds the accumulate type: 16-bit slots (raised by a
// compare-and-swap loop), f32 and f64 ones (atomic maxima of their bits).
// f32 and f64 keep the fp8 promise; the 16-bit types, whose y itself is
// rounded to 8 or 11 bits, find each block's amax within their rounding.
TEST(Fp8BlockAccumulate, EveryAccumulateTypeFindsEachBlocksAmax) {
  for (dsl::DType acc :
       {dsl::DType::F16, dsl::DType::BF16, dsl::DType::F32, dsl::DType::F64}) {
    SCOPED_TRACE(dsl::toString(acc));
    dsl::Spec spec =
        turnedFp8("llama_rmsnorm", Format::F8E4M3, Mode::Block, 32);
    spec.accumulate.value = acc;
    CaseData data = makeCase(spec, 3, 100, 12); // blocks of 32, 32, 32, 4
    Compiled compiled = compile(spec);
    RunOutputs out = runModuleOnCpu(spec, compiled.emitted.kernels,
                                    compiled.module, inputsOf(data));
    if (acc == dsl::DType::F32 || acc == dsl::DType::F64) {
      Grade g = grade(spec, data, out);
      EXPECT_LE(g.worst(), 1.0) << g.str();
      continue;
    }
    reference::Inputs in;
    in.x = data.x.data();
    in.gamma = data.gamma.data();
    in.rows = data.rows;
    in.d = data.d;
    in.xStride = data.xStride;
    reference::Quantization want = reference::quantization(
        spec, reference::evaluate(spec, in), data.rows, data.d);
    ASSERT_EQ(out["scale"].size(), want.scale.size());
    for (size_t i = 0; i < want.scale.size(); ++i)
      EXPECT_NEAR(out["scale"][i], want.scale[i], want.scale[i] * 0x1p-5) << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, Fp8Edges,
                         ::testing::Values(Format::F8E4M3, Format::F8E5M2),
                         [](const auto &info) {
                           return std::string(dsl::toString(info.param));
                         });

} // namespace
