//===- NumericsUtil.cpp - Run a spec on the CPU device and grade it -------===//
#include "NumericsUtil.h"

#include "normc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

using namespace normc;
using namespace normc::test;

dsl::Spec test::loadShippedSpec(const std::string &name) {
  std::string path = std::string(NORMC_SPECS_DIR) + "/" + name + ".toml";
  dsl::SpecParseResult result = dsl::parseSpecFile(path);
  if (!result.spec) {
    std::string message;
    for (const dsl::Diagnostic &d : result.diagnostics)
      message += d.str() + "\n";
    throw std::runtime_error(message);
  }
  return *result.spec;
}

CaseData test::makeCase(const dsl::Spec &spec, int64_t rows, int64_t d,
                        uint64_t seed, double scale, int64_t xStride) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  auto draw = [&](size_t count, dsl::DType type, double mean, double std) {
    std::vector<double> v(count);
    for (double &e : v)
      e = reference::roundTo(type, mean + std * normal(rng));
    return v;
  };
  CaseData c;
  c.rows = rows;
  c.d = d;
  c.xStride = xStride ? xStride : d;
  c.x = draw(rows * c.xStride, spec.input.value, 0.0, scale);
  if (spec.residualAdd.value)
    c.residual = draw(rows * c.xStride, spec.input.value, 0.0, scale);
  if (spec.gain.value)
    c.gamma = draw(d, spec.params.value, 1.0, 0.1);
  if (spec.bias.value)
    c.beta = draw(d, spec.params.value, 0.0, 0.1);
  return c;
}

double Grade::worst() const { return std::max({y, residualOut, mean, rstd}); }

std::string Grade::str() const {
  char text[160];
  std::snprintf(text, sizeof text,
                "y %.3g, residual_out %.3g, mean %.3g, rstd %.3g", y,
                residualOut, mean, rstd);
  return text;
}

static double worstOf(const std::vector<double> &got,
                      const std::vector<double> &ref, dsl::DType type) {
  EXPECT_EQ(got.size(), ref.size());
  double worst = 0;
  for (size_t i = 0; i < std::min(got.size(), ref.size()); ++i)
    worst = std::max(worst, reference::errorFraction(got[i], ref[i], type));
  return worst;
}

RunInputs test::inputsOf(const CaseData &data) {
  auto ptr = [](const std::vector<double> &v) {
    return v.empty() ? nullptr : v.data();
  };
  RunInputs in;
  in.rows = data.rows;
  in.d = data.d;
  in.x = data.x.data();
  in.residual = ptr(data.residual);
  in.gamma = ptr(data.gamma);
  in.beta = ptr(data.beta);
  in.xStride = in.residualStride = data.xStride;
  return in;
}

Grade test::grade(const dsl::Spec &spec, const CaseData &data,
                  const RunOutputs &got) {
  RunInputs in = inputsOf(data);
  reference::Inputs refIn;
  refIn.x = in.x;
  refIn.residual = in.residual;
  refIn.gamma = in.gamma;
  refIn.beta = in.beta;
  refIn.rows = data.rows;
  refIn.d = data.d;
  refIn.xStride = refIn.residualStride = data.xStride;
  reference::Outputs ref = reference::evaluate(spec, refIn);

  Grade grade;
  grade.y = worstOf(got.y, ref.y, spec.output.value);
  grade.residualOut =
      worstOf(got.residualOut, ref.residualOut, spec.input.value);
  grade.mean = worstOf(got.mean, ref.mean, dsl::DType::F32);
  grade.rstd = worstOf(got.rstd, ref.rstd, dsl::DType::F32);
  return grade;
}

Grade test::runAndGrade(const dsl::Spec &spec, const CaseData &data,
                        const RunOptions &options, RunOutputs *outputs,
                        const dsl::Spec *compiled) {
  RunOutputs got =
      runSpecOnCpu(compiled ? *compiled : spec, inputsOf(data), options);
  Grade result = grade(spec, data, got);
  if (outputs)
    *outputs = std::move(got);
  return result;
}

cpu::CompileOptions test::kernelCompileOptions() {
  cpu::CompileOptions options;
#ifdef NORMC_SANITIZED
  options.extraFlags = {"-fsanitize=address,undefined",
                        "-fno-sanitize-recover=undefined"};
#endif
  return options;
}
