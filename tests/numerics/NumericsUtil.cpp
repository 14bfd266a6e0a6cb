//===- NumericsUtil.cpp - Run a spec on the CPU device and grade it -------===//
#include "NumericsUtil.h"

#include "normc/Policy/Candidates.h"
#include "normc/Reference/Gradient.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
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
    c.residual = draw(rows * c.xStride, spec.residualType(), 0.0, scale);
  if (spec.gated())
    c.z = draw(rows * c.xStride, spec.input.value, 0.0, 2.0);
  if (spec.gain.value)
    c.gamma = draw(d, spec.params.value, 1.0, 0.1);
  if (spec.bias.value)
    c.beta = draw(d, spec.params.value, 0.0, 0.1);
  if (!spec.hasStatistics())
    c.alpha = draw(1, spec.params.value, 0.5, 0.1);
  if (spec.method.value == dsl::Method::Erf)
    c.shift = draw(1, spec.params.value, 0.0, 0.1);
  if (spec.quantized() &&
      spec.quantizeScale.value == dsl::QuantizeScale::Static)
    c.staticScale = {std::ldexp(1.0, -6)};
  return c;
}

double Grade::worst() const {
  return std::max({y, residualOut, mean, rstd, scale});
}

std::string Grade::str() const {
  char text[256];
  int n = std::snprintf(text, sizeof text,
                        "y %.3g, residual_out %.3g, mean %.3g, rstd %.3g", y,
                        residualOut, mean, rstd);
  if (fp8Values)
    std::snprintf(text + n, sizeof text - n,
                  ", scale %.3g, fp8 %zu of %zu exact, %zu wrong", scale,
                  fp8Exact, fp8Values, fp8Wrong);
  return text;
}

Leeway test::leewayOf(const dsl::Spec &spec, int64_t d) {
  Leeway l;
  dsl::DType acc = spec.accumulate.value;
  if (acc != dsl::DType::F16 && acc != dsl::DType::BF16)
    return l;
  l.coarsest = acc;
  // Unit roundoffs: 2^-24 for f32, 2^-11 for f16, 2^-8 for bf16.
  l.roundoffRatio = std::ldexp(1.0, acc == dsl::DType::F16 ? 13 : 16);
  l.depth = std::log2(double(std::max<int64_t>(d, 1))) + 2;
  return l;
}

dsl::DType Leeway::type(dsl::DType t) const {
  if (coarsest && reference::tolerance(*coarsest) > reference::tolerance(t))
    return *coarsest;
  return t;
}

/// `conditioning`, when not empty, holds each element's second term of the
/// bound (reference::Outputs::yConditioning).
static double worstOf(const std::vector<double> &got,
                      const std::vector<double> &ref, dsl::DType type,
                      const Leeway &leeway,
                      const std::vector<double> &conditioning = {}) {
  EXPECT_EQ(got.size(), ref.size());
  double worst = 0;
  for (size_t i = 0; i < std::min(got.size(), ref.size()); ++i)
    worst = std::max(
        worst,
        reference::errorFraction(
            got[i], ref[i], leeway.type(type),
            conditioning.empty() ? 0 : conditioning[i] * leeway.roundoffRatio) /
            leeway.depth);
  return worst;
}

RunInputs test::inputsOf(const CaseData &data) {
  auto ptr = [](const std::vector<double> &v) {
    return v.empty() ? nullptr : v.data();
  };
  RunInputs in;
  in.rows = data.rows;
  in.d = data.d;
  in.set("x", data.x.data(), data.xStride)
      .set("residual", ptr(data.residual), data.xStride)
      .set("z", ptr(data.z), data.xStride)
      .set("gamma", ptr(data.gamma))
      .set("beta", ptr(data.beta))
      .set("alpha", ptr(data.alpha))
      .set("shift", ptr(data.shift))
      .set("scale", ptr(data.staticScale));
  return in;
}

/// The fp8 promise (docs/fp8.md) for an fp8 y: each value against y_ref / s
/// with the kernel's own s, and the scales (or the amax) against the
/// reference's.
static void gradeFp8(const dsl::Spec &spec, const CaseData &data,
                     const reference::Outputs &ref, const RunOutputs &got,
                     const Leeway &leeway, Grade &grade) {
  bool isStatic = !data.staticScale.empty();
  reference::Quantization want = reference::quantization(
      spec, ref, data.rows, data.d, isStatic ? data.staticScale[0] : 1.0);
  const std::vector<double> &scales = isStatic ? got["amax"] : got["scale"];
  EXPECT_EQ(scales.size(), want.scale.size());
  EXPECT_EQ(got["y"].size(), ref.y.size());
  if (scales.size() != want.scale.size() || got["y"].size() != ref.y.size()) {
    grade.y = grade.scale = INFINITY;
    return;
  }
  if (isStatic)
    grade.scale = worstOf(got["amax"], want.amax, dsl::DType::F32, leeway);
  else
    for (size_t i = 0; i < want.scale.size(); ++i)
      grade.scale = std::max(
          grade.scale, reference::scaleErrorFraction(
                           got["scale"][i], want.scale[i],
                           want.scaleConditioning[i] * leeway.roundoffRatio) /
                           (leeway.roundoffRatio * leeway.depth));
  reference::Fp8Count count =
      reference::countFp8(spec.output.value, got["y"], ref, data.d,
                          isStatic ? std::vector<double>() : got["scale"],
                          isStatic ? data.staticScale[0] : 1.0, want.group);
  grade.fp8Values = count.values;
  grade.fp8Exact = count.exact;
  grade.fp8Wrong = count.values - count.accepted;
  grade.y = grade.fp8Wrong ? INFINITY : 0;
}

Grade test::grade(const dsl::Spec &spec, const CaseData &data,
                  const RunOutputs &got) {
  RunInputs in = inputsOf(data);
  reference::Inputs refIn;
  refIn.x = in.get("x");
  refIn.residual = in.get("residual");
  refIn.gamma = in.get("gamma");
  refIn.beta = in.get("beta");
  refIn.z = in.get("z");
  refIn.alpha = in.get("alpha");
  refIn.shift = in.get("shift");
  refIn.rows = data.rows;
  refIn.d = data.d;
  refIn.xStride = refIn.residualStride = refIn.zStride = data.xStride;
  reference::Outputs ref = reference::evaluate(spec, refIn);

  Leeway leeway = leewayOf(spec, data.d);
  Grade grade;
  if (spec.quantized())
    gradeFp8(spec, data, ref, got, leeway, grade);
  else
    grade.y =
        worstOf(got["y"], ref.y, spec.output.value, leeway, ref.yConditioning);
  grade.residualOut = worstOf(got["residual_out"], ref.residualOut,
                              spec.residualType(), leeway);
  grade.mean = worstOf(got["mean"], ref.mean, dsl::DType::F32, leeway);
  grade.rstd = worstOf(got["rstd"], ref.rstd, dsl::DType::F32, leeway);
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

GradientCase test::makeGradientCase(const dsl::Spec &spec, const CaseData &data,
                                    const Program &program, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  size_t cells = size_t(data.rows) * size_t(data.d);
  auto draw = [&](dsl::DType type) {
    std::vector<double> v(cells);
    for (double &e : v)
      e = reference::roundTo(type, normal(rng));
    return v;
  };
  GradientCase g;
  g.dy = draw(spec.output.value);
  if (program.dresidualOut)
    g.dresidualOut = draw(spec.residualType());
  if (program.savedStats) {
    dsl::Spec saving = spec;
    saving.saveStats.value = true;
    RunOptions forward;
    forward.compile = kernelCompileOptions();
    RunOutputs out = runSpecOnCpu(saving, inputsOf(data), forward);
    g.mean = out["mean"];
    g.rstd = out["rstd"];
  }
  return g;
}

RunInputs test::inputsOf(const CaseData &data, const GradientCase &grad) {
  auto ptr = [](const std::vector<double> &v) {
    return v.empty() ? nullptr : v.data();
  };
  RunInputs in = inputsOf(data);
  in.set("dy", ptr(grad.dy))
      .set("dresidual_out", ptr(grad.dresidualOut))
      .set("mean", ptr(grad.mean))
      .set("rstd", ptr(grad.rstd));
  return in;
}

double GradientGrade::worst() const {
  return std::max({dx, dresidual, dgamma, dbeta, dz, dalpha, dshift});
}

std::string GradientGrade::str() const {
  char text[200];
  std::snprintf(text, sizeof text,
                "dx %.3g, dresidual %.3g, dgamma %.3g, dbeta %.3g, dz %.3g, "
                "dalpha %.3g, dshift %.3g",
                dx, dresidual, dgamma, dbeta, dz, dalpha, dshift);
  return text;
}

reference::Gradients test::referenceGradient(const dsl::Spec &spec,
                                             const CaseData &data,
                                             const GradientCase &grad) {
  RunInputs in = inputsOf(data, grad);
  reference::GradientInputs refIn;
  refIn.forward.x = in.get("x");
  refIn.forward.residual = in.get("residual");
  refIn.forward.gamma = in.get("gamma");
  refIn.forward.beta = in.get("beta");
  refIn.forward.z = in.get("z");
  refIn.forward.alpha = in.get("alpha");
  refIn.forward.shift = in.get("shift");
  refIn.forward.rows = data.rows;
  refIn.forward.d = data.d;
  refIn.forward.xStride = refIn.forward.residualStride = refIn.forward.zStride =
      data.xStride;
  refIn.dy = in.get("dy");
  refIn.dresidualOut = in.get("dresidual_out");
  return reference::evaluateGradient(spec, refIn);
}

GradientGrade test::gradeGradient(const dsl::Spec &spec, const CaseData &data,
                                  const GradientCase &grad,
                                  const RunOutputs &got) {
  reference::Gradients ref = referenceGradient(spec, data, grad);
  auto worst = [](const std::vector<double> &got,
                  const std::vector<double> &want,
                  const std::function<double(size_t)> &fraction) {
    EXPECT_EQ(got.size(), want.size());
    double w = 0;
    for (size_t i = 0; i < std::min(got.size(), want.size()); ++i)
      w = std::max(w, fraction(i));
    return w;
  };
  Leeway leeway = leewayOf(spec, data.d);
  // dx and dresidual: the same values, each rounded to its type.
  auto dx = [&](const std::vector<double> &v, dsl::DType type,
                const std::vector<double> &want,
                const std::vector<double> &scale) {
    return worst(v, want, [&](size_t i) {
      return reference::dxErrorFraction(v[i], want[i], scale[i],
                                        leeway.type(type)) /
             leeway.depth;
    });
  };
  auto param = [&](const std::vector<double> &v, const std::vector<double> &r,
                   const std::vector<double> &scale,
                   const std::vector<double> &conditioning) {
    return worst(v, r, [&](size_t i) {
      return reference::paramGradErrorFraction(
                 v[i], r[i], scale[i] * leeway.roundoffRatio,
                 reference::paramGradType(spec),
                 conditioning.empty()
                     ? 0.0
                     : conditioning[i] * leeway.roundoffRatio) /
             leeway.depth;
    });
  };
  GradientGrade g;
  g.dx = dx(got["dx"], spec.input.value, ref.dx, ref.dxScale);
  if (spec.residualAdd.value)
    g.dresidual =
        dx(got["dresidual"], spec.residualType(), ref.dx, ref.dxScale);
  if (spec.gated())
    g.dz = dx(got["dz"], spec.input.value, ref.dz, ref.dzScale);
  if (spec.gain.value)
    g.dgamma = param(got["dgamma"], ref.dgamma, ref.dgammaScale,
                     ref.dgammaConditioning);
  if (spec.bias.value)
    g.dbeta = param(got["dbeta"], ref.dbeta, ref.dbetaScale, {});
  if (!ref.dalpha.empty())
    g.dalpha = param(got["dalpha"], ref.dalpha, ref.dalphaScale, {});
  if (!ref.dshift.empty())
    g.dshift = param(got["dshift"], ref.dshift, ref.dshiftScale, {});
  return g;
}

double test::worstOverLaneOrders(const dsl::Spec &spec, const CaseData &data,
                                 RunOptions options) {
  options.compile = kernelCompileOptions();
  options.launch.seed = 3;
  double worst = 0;
  for (cpu::LaneOrder order : kLaneOrders) {
    options.launch.laneOrder = order;
    try {
      worst = std::max(worst, runAndGrade(spec, data, options).worst());
    } catch (const cpu::CpuLaunchError &) {
      return std::numeric_limits<double>::infinity();
    }
  }
  return worst;
}

cpu::CompileOptions test::kernelCompileOptions() {
  cpu::CompileOptions options;
#ifdef NORMC_SANITIZED
  options.extraFlags = {"-fsanitize=address,undefined",
                        "-fno-sanitize-recover=undefined"};
#endif
  return options;
}

CandidateKernels test::compileCandidates(const SpecCompilation &compilation,
                                         const std::string &name) {
  // What the tuner may pick on any device: the candidates of an unknown
  // target, of sm_80 and of sm_90 (clusters).
  std::vector<Schedule> schedules;
  for (int arch : {0, 80, 90}) {
    ScheduleProblem problem = compilation.problem();
    problem.arch = arch;
    for (const Schedule &s : scheduleCandidates(problem))
      if (std::find(schedules.begin(), schedules.end(), s) == schedules.end())
        schedules.push_back(s);
  }
  EXPECT_FALSE(schedules.empty());
  std::string source, errors;
  std::vector<std::vector<KernelLaunchInfo>> kernels;
  std::vector<Schedule> emitted;
  for (size_t i = 0; i < schedules.size(); ++i) {
    std::optional<EmittedModule> module = compilation.emitModule(
        schedules[i], errors, name + "_" + std::to_string(i));
    if (!module) {
      ADD_FAILURE() << schedules[i].str() << ": " << errors;
      continue;
    }
    source += module->source;
    kernels.push_back(module->kernels);
    emitted.push_back(schedules[i]);
  }
  return {std::move(emitted), std::move(kernels),
          cpu::CpuModule::compile(source, kernelCompileOptions())};
}

int test::expectEveryCandidateKeepsTheBound(const dsl::Spec &spec,
                                            const CandidateKernels &candidates,
                                            const CaseData &data,
                                            bool specialized) {
  RunOptions options;
  options.launch.laneOrder = cpu::LaneOrder::Random;
  options.launch.seed = 3;
  int launched = 0;
  for (size_t i = 0; i < candidates.schedules.size(); ++i) {
    if (!fitsShared(candidates, i, data.d)) {
      EXPECT_FALSE(specialized) << candidates.schedules[i].str();
      continue;
    }
    ++launched;
    RunOutputs out = runModuleOnCpu(spec, candidates.kernels[i],
                                    candidates.module, inputsOf(data), options);
    Grade g = grade(spec, data, out);
    EXPECT_LE(g.worst(), 1.0)
        << candidates.schedules[i].str() << ": " << g.str();
  }
  return launched;
}
