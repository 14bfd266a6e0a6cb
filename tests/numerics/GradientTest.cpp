//===- GradientTest.cpp - The backward of every shipped spec --------------===//
//
// The derived backward kernels of each shipped spec, with d fixed at
// compile time and at run time, over the d x rows matrix of the forward
// suite, on the CPU device, against the float64 gradient of
// reference/Gradient.h with the bounds of docs/numerics.md. The cases
// rotate over the backward programs (statistics recomputed or read from a
// forward's save_stats, the gradient at residual_out or not) and over lane
// orders. Prints the worst error of each case as a fraction of its bound,
// and the worst of all per output at the end. Also: dgamma and dbeta are
// the same bits from run to run, and every backward schedule candidate is
// correct. By default each spec runs once (d fixed or at run time, one
// candidate shape); scripts/test.sh --full runs every combination.
//
//===----------------------------------------------------------------------===//
#include "NumericsUtil.h"

#include "normc/Frontend/SpecCompiler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <tuple>

using namespace normc;
using namespace normc::test;

namespace {

/// The worst of every case, per output.
struct Worst {
  GradientGrade grade;
  std::string where[4];
  int cases = 0;
  void add(const GradientGrade &g, const std::string &at) {
    ++cases;
    double *mine[] = {&grade.dx, &grade.dresidual, &grade.dgamma, &grade.dbeta};
    const double theirs[] = {g.dx, g.dresidual, g.dgamma, g.dbeta};
    for (int i = 0; i < 4; ++i)
      if (theirs[i] >= *mine[i]) {
        *mine[i] = theirs[i];
        where[i] = at;
      }
  }
};
Worst &worstOverall() {
  static Worst worst;
  return worst;
}

class Summary : public ::testing::Environment {
  void TearDown() override {
    const Worst &w = worstOverall();
    const char *names[] = {"dx", "dresidual", "dgamma", "dbeta"};
    const double values[] = {w.grade.dx, w.grade.dresidual, w.grade.dgamma,
                             w.grade.dbeta};
    std::printf("gradient: worst error over %d cases, as a fraction of the "
                "bound:\n",
                w.cases);
    for (int i = 0; i < 4; ++i)
      std::printf("  %-9s %.3g (%s)\n", names[i], values[i],
                  w.where[i].c_str());
  }
};
const auto *const summary = ::testing::AddGlobalTestEnvironment(new Summary);

using Param = std::tuple<const char *, bool>;

class Gradient : public ::testing::TestWithParam<Param> {};

TEST_P(Gradient, MeetsTheBound) {
  auto [name, specialize] = GetParam();
  dsl::Spec spec = loadShippedSpec(name);
  std::vector<Program> programs = Program::backwards(spec.residualAdd.value);
  unsigned index = 0;
  for (int64_t d : kSuiteD) {
    for (int64_t rows : kSuiteRows) {
      // The widest rows cost the most on the CPU: one row count suffices.
      if (d == 65536 && rows > 1)
        continue;
      RunOptions options;
      options.program = programs[index % programs.size()];
      options.specialize = specialize;
      options.compile = kernelCompileOptions();
      options.launch.laneOrder = kLaneOrders[index % 3];
      options.launch.seed = index;
      CaseData data = makeCase(spec, rows, d, 2000 + index);
      GradientCase grad =
          makeGradientCase(spec, data, options.program, 3000 + index);
      ++index;
      RunOutputs got = runSpecOnCpu(spec, inputsOf(data, grad), options);
      GradientGrade grade = gradeGradient(spec, data, grad, got);
      char where[200];
      std::snprintf(where, sizeof where, "%s %s d=%lld%s rows=%lld", name,
                    options.program.str().c_str(), (long long)d,
                    specialize ? "" : " (run-time d)", (long long)rows);
      std::printf("  %-64s %s\n", where, grade.str().c_str());
      EXPECT_LE(grade.worst(), 1.0) << where << ": " << grade.str();
      worstOverall().add(grade, where);
    }
  }
}

std::string caseName(const ::testing::TestParamInfo<Param> &info) {
  auto [name, specialize] = info.param;
  return std::string(name) + (specialize ? "_fixed_d" : "_runtime_d");
}

std::vector<Param> everyGradientCase() {
  std::vector<Param> all;
  for (const char *name : kShippedSpecs)
    for (bool specialize : {false, true})
      all.emplace_back(name, specialize);
  return all;
}

/// By default each spec once, d fixed and at run time alternating.
bool representativeGradient(size_t i, const Param &) {
  return i % 2 == i / 2 % 2;
}

NORMC_INSTANTIATE_SWEEP(Gradient, everyGradientCase(), representativeGradient,
                        caseName);

/// The bits of dgamma and dbeta of one run.
std::vector<double> paramBits(const RunOutputs &out) {
  std::vector<double> bits = out["dgamma"];
  bits.insert(bits.end(), out["dbeta"].begin(), out["dbeta"].end());
  return bits;
}

TEST(GradientDeterminism, ParameterGradientsAreTheSameBitsEveryRun) {
  // Many rows per block and many blocks: the partial sums' order is all
  // that could differ. Lane orders and host threads change between runs.
  for (const char *name : {"layernorm", "fused_add_rmsnorm"}) {
    dsl::Spec spec = loadShippedSpec(name);
    CaseData data = makeCase(spec, 301, 1000, 7);
    GradientCase grad = makeGradientCase(spec, data, Program::gradient(), 8);
    std::vector<double> first;
    for (int run = 0; run < 4; ++run) {
      RunOptions options;
      options.program = Program::gradient();
      options.compile = kernelCompileOptions();
      options.launch.laneOrder = kLaneOrders[run % 3];
      options.launch.seed = 11 * run;
      options.launch.hostThreads = 1 + run % 2;
      std::vector<double> bits =
          paramBits(runSpecOnCpu(spec, inputsOf(data, grad), options));
      ASSERT_FALSE(bits.empty());
      if (run == 0) {
        first = bits;
        continue;
      }
      ASSERT_EQ(bits.size(), first.size());
      EXPECT_EQ(0, std::memcmp(bits.data(), first.data(),
                               bits.size() * sizeof(double)))
          << name << ": run " << run << " differs";
    }
  }
}

/// The largest |v - ref| as a fraction of the largest |ref|.
double relativeError(const std::vector<double> &v,
                     const std::vector<double> &ref) {
  EXPECT_EQ(v.size(), ref.size());
  double error = 0, largest = 0;
  for (size_t i = 0; i < std::min(v.size(), ref.size()); ++i) {
    error = std::max(error, std::fabs(v[i] - ref[i]));
    largest = std::max(largest, std::fabs(ref[i]));
  }
  return error / largest;
}

TEST(AccumulateRows, ParameterGradientsSumOverRowsInTheirOwnType) {
  // bf16 rows (Liger's casting mode "none"), 2048 of them: with the sums
  // over rows in f32, dgamma is as close to float64 as the bf16 terms allow
  // and dbeta (the sum of dy, exact bf16 terms) is the correctly rounded sum;
  // summed in bf16, both are tens of times further.
  dsl::Spec bf16Rows = loadShippedSpec("layernorm");
  for (dsl::Located<dsl::DType> *t : {&bf16Rows.input, &bf16Rows.output,
                                      &bf16Rows.params, &bf16Rows.accumulate})
    t->value = dsl::DType::BF16;
  dsl::Spec f32Rows = bf16Rows;
  f32Rows.accumulateRows.value = dsl::DType::F32;
  const int64_t rows = 2048, d = 256;
  CaseData data = makeCase(bf16Rows, rows, d, 41);
  GradientCase grad = makeGradientCase(bf16Rows, data, Program::gradient(), 42);
  RunInputs in = inputsOf(data, grad);
  reference::Gradients ref = referenceGradient(bf16Rows, data, grad);
  RunOptions options;
  options.program = Program::gradient();
  options.compile = kernelCompileOptions();
  RunOutputs summedInBf16 = runSpecOnCpu(bf16Rows, in, options);
  RunOutputs summedInF32 = runSpecOnCpu(f32Rows, in, options);
  for (const dsl::Spec *spec : {&bf16Rows, &f32Rows}) {
    GradientGrade g = gradeGradient(
        *spec, data, grad, spec == &f32Rows ? summedInF32 : summedInBf16);
    EXPECT_LE(g.worst(), 1.0) << g.str();
  }
  double dgammaF32 = relativeError(summedInF32["dgamma"], ref.dgamma);
  double dgammaBf16 = relativeError(summedInBf16["dgamma"], ref.dgamma);
  std::printf("dgamma against float64, rows summed in f32: %.3g, in bf16: "
              "%.3g\n",
              dgammaF32, dgammaBf16);
  EXPECT_LT(dgammaF32, std::ldexp(1.0, -6));
  EXPECT_LT(8 * dgammaF32, dgammaBf16);
  // dbeta: within half a bf16 ulp of the exact sum, plus f32's rounding of
  // the terms' sum.
  const std::vector<double> &dbeta = summedInF32["dbeta"];
  ASSERT_EQ(dbeta.size(), size_t(d));
  int misrounded = 0;
  for (int64_t i = 0; i < d; ++i) {
    double halfUlp = std::ldexp(1.0, std::ilogb(ref.dbeta[i]) - 8);
    if (std::fabs(dbeta[i] - ref.dbeta[i]) >
        halfUlp + std::ldexp(ref.dbetaScale[i], -20))
      ++misrounded;
  }
  EXPECT_EQ(misrounded, 0);
  EXPECT_LT(8 * relativeError(dbeta, ref.dbeta),
            relativeError(summedInBf16["dbeta"], ref.dbeta));
}

TEST(ResidualType, AnF32StreamUnderBf16Activations) {
  // x bf16, r and residual_out f32: the statistics are taken on the f32 sum
  // (the saved mean and rstd are held to f32's bound against it), dresidual
  // is rounded to f32 and dx to bf16, in every backward program.
  dsl::Spec spec = loadShippedSpec("fused_add_rmsnorm");
  spec.residual.value = dsl::DType::F32;
  CaseData data = makeCase(spec, 67, 1000, 51);
  RunOptions options;
  options.compile = kernelCompileOptions();
  RunOutputs forward;
  Grade grade = runAndGrade(spec, data, options, &forward);
  EXPECT_LE(grade.worst(), 1.0) << grade.str();
  const std::vector<double> &h = forward["residual_out"];
  ASSERT_EQ(h.size(), data.x.size());
  int inexact = 0, beyondBf16 = 0;
  for (size_t i = 0; i < h.size(); ++i) {
    double sum =
        reference::roundTo(dsl::DType::F32, data.x[i] + data.residual[i]);
    inexact += h[i] != sum;
    beyondBf16 += h[i] != reference::roundTo(dsl::DType::BF16, h[i]);
  }
  EXPECT_EQ(inexact, 0);
  EXPECT_GT(beyondBf16, 0);
  unsigned seed = 52;
  for (const Program &program : Program::backwards(true)) {
    RunOptions backward = options;
    backward.program = program;
    GradientCase grad = makeGradientCase(spec, data, program, seed++);
    RunOutputs got = runSpecOnCpu(spec, inputsOf(data, grad), backward);
    GradientGrade g = gradeGradient(spec, data, grad, got);
    EXPECT_LE(g.worst(), 1.0) << program.str() << ": " << g.str();
    int widerThanDx = 0;
    for (size_t i = 0; i < got["dx"].size(); ++i)
      widerThanDx += got["dresidual"][i] != got["dx"][i];
    EXPECT_GT(widerThanDx, 0) << program.str();
  }
}

/// Every schedule candidate of each backward program: the tuner may pick
/// any of them.
struct CandidateShape {
  int64_t d;
  bool specialize; // d fixed at compile time
};

class EveryBackwardCandidate : public ::testing::TestWithParam<
                                   std::tuple<const char *, CandidateShape>> {};

TEST_P(EveryBackwardCandidate, MatchesTheReference) {
  auto [name, shape] = GetParam();
  int64_t d = shape.d;
  dsl::Spec spec = loadShippedSpec(name);
  int launched = 0;
  for (const Program &program : Program::backwards(spec.residualAdd.value)) {
    std::string errors;
    std::unique_ptr<SpecCompilation> compilation = SpecCompilation::create(
        spec, shape.specialize ? std::optional<int64_t>(d) : std::nullopt,
        errors, program);
    ASSERT_TRUE(compilation) << errors;
    // Five rows: a partial last group for every rows_per_block above one.
    CaseData data = makeCase(spec, 5, d, 17);
    GradientCase grad = makeGradientCase(spec, data, program, 18);
    CandidateKernels candidates =
        compileCandidates(*compilation, spec.name.value);
    RunOptions options;
    options.launch.laneOrder = cpu::LaneOrder::Random;
    options.launch.seed = 3;
    for (size_t i = 0; i < candidates.schedules.size(); ++i) {
      if (!fitsShared(candidates, i, d)) {
        EXPECT_FALSE(shape.specialize) << candidates.schedules[i].str();
        continue;
      }
      ++launched;
      RunOutputs out =
          runModuleOnCpu(spec, candidates.kernels[i], candidates.module,
                         inputsOf(data, grad), options);
      GradientGrade g = gradeGradient(spec, data, grad, out);
      EXPECT_LE(g.worst(), 1.0)
          << program.str() << " " << candidates.schedules[i].str() << ": "
          << g.str();
    }
  }
  EXPECT_GT(launched, 0);
  RecordProperty("candidates", launched);
}

const CandidateShape kCandidateShapes[] = {
    {7, true}, {1000, true}, {4097, true}, {1000, false}};

using CandidateCase = std::tuple<const char *, CandidateShape>;

std::vector<CandidateCase> everyCandidateCase() {
  std::vector<CandidateCase> all;
  for (const char *name : kShippedSpecs)
    for (const CandidateShape &shape : kCandidateShapes)
      all.emplace_back(name, shape);
  return all;
}

/// By default each spec at one shape, the shapes rotating over the specs.
bool representativeCandidate(size_t i, const CandidateCase &) {
  size_t shapes = std::size(kCandidateShapes);
  return i % shapes == i / shapes % shapes;
}

std::string
candidateCaseName(const ::testing::TestParamInfo<CandidateCase> &info) {
  CandidateShape shape = std::get<1>(info.param);
  return std::string(std::get<0>(info.param)) + "_d" + std::to_string(shape.d) +
         (shape.specialize ? "_fixed" : "_runtime");
}

NORMC_INSTANTIATE_SWEEP(EveryBackwardCandidate, everyCandidateCase(),
                        representativeCandidate, candidateCaseName);

} // namespace
