//===- RunCommand.cpp - normc run -----------------------------------------===//
#include "CommandLine.h"
#include "Commands.h"
#include "OutputFile.h"
#include "SpecInput.h"

#include "CudaRun.h"

#include "normc/Frontend/SpecCompiler.h"
#include "normc/Reference/Gradient.h"
#include "normc/Runtime/CudaDriver.h"
#include "normc/Runtime/Npy.h"
#include "normc/Runtime/SpecRunner.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <functional>
#include <new>

using namespace normc;
using namespace normc::tool;

static const char kRunUsage[] =
    R"(usage: normc run SPEC.toml --x X.npy [--residual R.npy] [--gamma G.npy]
                 [--beta B.npy] [--scale S.npy] --out DIR
                 [--device=auto|cpu|cuda] [--kernel FILE.mlir] [--check]
       normc run SPEC.toml --backward --x X.npy [--residual R.npy]
                 [--gamma G.npy] [--beta B.npy] --dy DY.npy
                 [--dresidual-out DH.npy] [--mean M.npy] [--rstd RS.npy]
                 --out DIR [--device=auto|cpu|cuda] [--kernel FILE.mlir]
                 [--check]

Runs the spec's generated kernel on x [rows, d] (and the residual [rows, d],
gamma [d], beta [d] the spec asks for). Inputs are float32, float64 or
float16 .npy files, rounded to the spec's types. Writes float32 .npy files
into DIR: y.npy, and where the spec asks, residual_out.npy, mean.npy,
rstd.npy. Nothing is written when anything fails.

With an fp8 output (dtypes.output = "f8e4m3" or "f8e5m2"), y.npy holds the
fp8 values as float32, not multiplied by their scale, and scale.npy [rows]
the scale of each row ([rows, ceil(d / block)] with [quantize] scale =
"block"); with [quantize] scale = "static", --scale S.npy [1]
gives the scale and amax.npy [rows] receives each row's largest |y|.

With --backward it runs the backward kernels for the gradient dy [rows, d]
arriving at y (and, with residual_add, DH [rows, d] arriving at
residual_out) and writes dx.npy, and where the spec has them,
dresidual.npy, dgamma.npy, dbeta.npy. --mean/--rstd [rows], a forward's
saved statistics, are used instead of recomputing them.

options:
  --device=WHERE   auto (default: a CUDA GPU when present, else the CPU),
                   cpu, or cuda
  --kernel FILE    run the kernel of this sched IR (row or kernel level,
                   e.g. a hand-edited --emit=sched or --emit=lowered output)
                   in place of the spec's own, on the CPU device; the spec
                   still says what it should compute
  --check          also evaluate the spec in float64, print the worst error
                   of each output as a fraction of the promised bound, and
                   exit 1 when one breaks it (the outputs are still written);
                   for fp8, the share of values that are the reference's
                   own rounding (contract section 7)
)";

namespace {
/// "[3, 4096]"
std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

bool checkShape(const std::string &path, const npy::Array &array,
                const std::vector<int64_t> &expected, const char *what) {
  if (array.shape == expected)
    return true;
  llvm::errs() << path << ": error: " << what << " must have shape "
               << shapeText(expected) << ", got " << shapeText(array.shape)
               << "\n";
  return false;
}

/// Prints the worst of `fraction(i)` over an output (how much of the
/// promised bound element i uses) and returns whether it keeps the promise.
bool report(const char *name, size_t count,
            const std::function<double(size_t)> &fraction) {
  double worst = 0;
  for (size_t i = 0; i < count; ++i)
    worst = std::max(worst, fraction(i));
  llvm::errs() << llvm::format("  %-13s worst error %.3g of the bound\n", name,
                               worst);
  return worst <= 1.0;
}

/// `conditioning`, when not empty, holds each element's second term of the
/// bound (reference::Outputs::yConditioning).
bool reportForward(const char *name, const std::vector<double> &got,
                   const std::vector<double> &ref, dsl::DType type,
                   const std::vector<double> &conditioning = {}) {
  return report(name, got.size(), [&](size_t i) {
    return reference::errorFraction(got[i], ref[i], type,
                                    conditioning.empty() ? 0 : conditioning[i]);
  });
}

/// Contract section 7 for an fp8 y: each q against y_ref / s with normc's own
/// s, the scales (within 2^-16) or the amax against the reference's.
bool reportQuantized(const dsl::Spec &spec, const RunOutputs &got,
                     const reference::Outputs &ref, int64_t rows, int64_t d,
                     const double *staticScale) {
  reference::Fp8 format = *reference::fp8Of(spec.output.value);
  reference::Quantization want = reference::quantization(
      spec, ref, rows, d, staticScale ? *staticScale : 1.0);
  bool kept = true;
  if (staticScale)
    kept = reportForward("amax", got.amax, want.amax, dsl::DType::F32);
  else
    kept = report("scale", got.scale.size(), [&](size_t i) {
      return reference::scaleErrorFraction(got.scale[i], want.scale[i]);
    });
  reference::Fp8Count count = reference::countFp8(
      format, got.y, ref, d, staticScale ? std::vector<double>() : got.scale,
      staticScale ? *staticScale : 1.0, want.group);
  llvm::errs() << llvm::format(
      "  %-13s %zu of %zu values the reference's rounding (%.4f%%), %zu "
      "others accepted (near a midpoint), %zu wrong\n",
      "y (fp8)", count.exact, count.values,
      count.values ? 100.0 * count.exact / count.values : 100.0,
      count.accepted - count.exact, count.values - count.accepted);
  return kept && count.accepted == count.values;
}

/// One input file: its flag, what it holds, its shape and whether the run
/// needs it or may take it.
struct InputFile {
  enum class Shape { Rows, Features, Stats, One };
  const char *flag;
  const char *what;
  Shape shape;
  bool needed;
  bool allowed;
  std::string needs;   // why it is needed
  std::string refuses; // why it is not taken
  npy::Array array;
  bool given = false;
  const double *data() const { return given ? array.data.data() : nullptr; }
};

/// The kernels of a sched IR file on the CPU device.
RunOutputs runIRFileOnCpu(const std::string &path, const dsl::Spec &spec,
                          const RunInputs &inputs) {
  std::string errors;
  std::optional<EmittedModule> emitted = emitIRFile(path, errors);
  if (!emitted)
    throw std::runtime_error("cannot compile the kernel:\n" + errors);
  cpu::CpuModule module = cpu::CpuModule::compile(emitted->source);
  return runModuleOnCpu(spec, emitted->kernels, module, inputs);
}
} // namespace

int normc::tool::runRun(int argc, char **argv) {
  int exitCode = 0;
  std::optional<ParsedArgs> args = parseCommand(
      argc, argv, "run", kRunUsage,
      {"--x", "--residual", "--gamma", "--beta", "--dy", "--dresidual-out",
       "--mean", "--rstd", "--scale", "--out", "--device", "--kernel"},
      {"--check", "--backward"}, exitCode);
  if (!args)
    return exitCode;
  std::string device = args->get("--device").value_or("auto");
  if (device != "auto" && device != "cpu" && device != "cuda") {
    usageError("unknown device '" + device + "'; expected auto, cpu or cuda");
    return kExitUsage;
  }
  std::optional<std::string> out = args->get("--out");
  if (!args->has("--x") || !out) {
    usageError(std::string("run needs ") +
               (args->has("--x") ? "--out DIR" : "--x X.npy"));
    return kExitUsage;
  }
  std::optional<std::string> kernelPath = args->get("--kernel");
  if (kernelPath && device == "cuda") {
    usageError("--kernel runs on the CPU device; drop --device=cuda");
    return kExitUsage;
  }
  std::optional<dsl::Spec> spec = readSpec(args->positional[0]);
  if (!spec)
    return kExitError;
  bool backward = args->has("--backward");
  if (backward && spec->quantized()) {
    llvm::errs() << dsl::Diagnostic{dsl::Severity::Error, spec->output.loc,
                                    "--backward with an fp8 output (\"" +
                                        std::string(
                                            dsl::toString(spec->output.value)) +
                                        "\"): fp8 outputs have no backward "
                                        "(contract section 7)"}
                        .str()
                 << "\n";
    return kExitError;
  }
  bool staticScale = spec->quantized() &&
                     spec->quantizeScale.value == dsl::QuantizeScale::Static;

  // Which inputs the run reads, and which it was given.
  using Shape = InputFile::Shape;
  bool center = spec->center.value, scale = spec->scale.value;
  bool saved = args->has("--mean") || args->has("--rstd");
  std::vector<InputFile> files = {
      {"--x", "x", Shape::Rows, true, true, "", "", {}},
      {"--residual",
       "the residual",
       Shape::Rows,
       spec->residualAdd.value,
       spec->residualAdd.value,
       "the spec has residual_add = true",
       "the spec has no residual_add",
       {}},
      {"--gamma",
       "gamma",
       Shape::Features,
       spec->gain.value,
       spec->gain.value,
       "the spec has gain = true",
       "the spec has no gain",
       {}},
      // The backward does not read beta (dbeta is a sum of dy) but takes
      // it, as a forward's inputs are passed alike.
      {"--beta",
       "beta",
       Shape::Features,
       spec->bias.value && !backward,
       spec->bias.value,
       "the spec has bias = true",
       "the spec has no bias",
       {}},
      {"--dy",
       "dy",
       Shape::Rows,
       backward,
       backward,
       "with --backward",
       "it needs --backward",
       {}},
      {"--dresidual-out",
       "the gradient at residual_out",
       Shape::Rows,
       false,
       backward && spec->residualAdd.value,
       "",
       backward ? "the spec has no residual_add" : "it needs --backward",
       {}},
      {"--mean",
       "the saved mean",
       Shape::Stats,
       backward && saved && center,
       backward && center,
       "with --rstd: saved statistics are passed together",
       backward ? "the spec does not center" : "it needs --backward",
       {}},
      {"--rstd",
       "the saved rstd",
       Shape::Stats,
       backward && saved && scale,
       backward,
       "with --mean: saved statistics are passed together",
       "it needs --backward",
       {}},
      {"--scale",
       "the static scale",
       Shape::One,
       staticScale,
       staticScale,
       "the spec has [quantize] scale = \"static\"",
       "only a spec with [quantize] scale = \"static\" reads a scale",
       {}}};
  for (const InputFile &f : files) {
    if (f.needed && !args->has(f.flag)) {
      usageError(f.needs.rfind("with ", 0) == 0
                     ? std::string("pass ") + f.flag + " FILE.npy " + f.needs
                     : f.needs + "; pass " + f.flag + " FILE.npy");
      return kExitUsage;
    }
    if (!f.allowed && args->has(f.flag)) {
      usageError(std::string("the run does not read ") + (f.flag + 2) + " (" +
                 f.refuses + "); drop " + f.flag);
      return kExitUsage;
    }
  }

  // Reads one input; a file that cannot be read names what it should hold.
  auto load = [](const std::string &path, const std::string &expected,
                 npy::Array &array) {
    try {
      array = npy::read(path);
      return true;
    } catch (const npy::NpyError &error) {
      llvm::errs() << path << ": error: " << error.reason() << " (expected "
                   << expected << ")\n";
      return false;
    } catch (const std::bad_alloc &) {
      llvm::errs() << path << ": error: too large to load (expected "
                   << expected << ")\n";
      return false;
    }
  };
  InputFile &xFile = files[0];
  std::string xPath = *args->get("--x");
  if (!load(xPath, "x of shape [rows, d]", xFile.array))
    return kExitError;
  xFile.given = true;
  if (xFile.array.shape.size() != 2) {
    llvm::errs() << xPath << ": error: x must have shape [rows, d], got "
                 << shapeText(xFile.array.shape) << "\n";
    return kExitError;
  }
  int64_t rows = xFile.array.shape[0], d = xFile.array.shape[1];
  if (d < 1) {
    llvm::errs() << xPath << ": error: x needs at least one feature, got "
                 << shapeText(xFile.array.shape) << "\n";
    return kExitError;
  }
  for (InputFile &f : files) {
    if (f.given || !args->has(f.flag))
      continue;
    std::vector<int64_t> shape = f.shape == Shape::Rows ? std::vector{rows, d}
                                 : f.shape == Shape::Features ? std::vector{d}
                                 : f.shape == Shape::One
                                     ? std::vector<int64_t>{1}
                                     : std::vector{rows};
    std::string path = *args->get(f.flag);
    if (!load(path, std::string(f.what) + " of shape " + shapeText(shape),
              f.array) ||
        !checkShape(path, f.array, shape, f.what))
      return kExitError;
    f.given = true;
  }
  const double *x = files[0].data(), *residual = files[1].data(),
               *gamma = files[2].data(), *beta = files[3].data(),
               *dy = files[4].data(), *dresidualOut = files[5].data(),
               *mean = files[6].data(), *rstd = files[7].data(),
               *scaleIn = files[8].data();

  bool onCuda = !kernelPath &&
                (device == "cuda" || (device == "auto" && cuda::available()));
  RunInputs inputs;
  inputs.rows = rows;
  inputs.d = d;
  inputs.x = x;
  inputs.residual = residual;
  inputs.gamma = gamma;
  inputs.beta = beta;
  inputs.dy = dy;
  inputs.dresidualOut = dresidualOut;
  inputs.mean = mean;
  inputs.rstd = rstd;
  inputs.staticScale = scaleIn;
  RunOptions options;
  if (backward)
    options.program = Program::gradient(saved, args->has("--dresidual-out"));
  RunOutputs result;
  auto start = std::chrono::steady_clock::now();
  try {
    if (kernelPath)
      result = runIRFileOnCpu(*kernelPath, *spec, inputs);
    else if (onCuda)
      result =
          runSpecOnCuda(args->positional[0], *spec, inputs, options.program);
    else
      result = runSpecOnCpu(*spec, inputs, options);
  } catch (const std::exception &error) {
    llvm::errs() << args->positional[0] << ": error: " << error.what() << "\n";
    return kExitError;
  }
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();

  // Encode every output first; write only when all are ready.
  std::vector<std::pair<std::string, std::string>> outputs;
  std::string missing;
  auto addFile = [&](const char *name, const std::vector<double> &values,
                     std::vector<int64_t> shape) {
    size_t count = 1;
    for (int64_t n : shape)
      count *= size_t(n);
    if (values.size() != count) {
      missing = name;
      return;
    }
    std::vector<float> data(values.begin(), values.end());
    outputs.emplace_back(name, npy::encodeFloat32(shape, data.data()));
  };
  if (backward) {
    addFile("dx.npy", result.dx, {rows, d});
    if (spec->residualAdd.value)
      addFile("dresidual.npy", result.dresidual, {rows, d});
    if (spec->gain.value)
      addFile("dgamma.npy", result.dgamma, {d});
    if (spec->bias.value)
      addFile("dbeta.npy", result.dbeta, {d});
  } else {
    addFile("y.npy", result.y, {rows, d});
    if (spec->residualAdd.value)
      addFile("residual_out.npy", result.residualOut, {rows, d});
    if (spec->saveStats.value && spec->center.value)
      addFile("mean.npy", result.mean, {rows});
    if (spec->saveStats.value)
      addFile("rstd.npy", result.rstd, {rows});
    if (staticScale)
      addFile("amax.npy", result.amax, {rows});
    else if (spec->quantized() &&
             spec->quantizeScale.value == dsl::QuantizeScale::Block)
      addFile("scale.npy", result.scale,
              {rows, (d + static_cast<int64_t>(spec->quantizeBlock.value) - 1) /
                         static_cast<int64_t>(spec->quantizeBlock.value)});
    else if (spec->quantized())
      addFile("scale.npy", result.scale, {rows});
  }
  if (!missing.empty()) {
    llvm::errs() << args->positional[0] << ": error: the kernels wrote no "
                 << missing << "\n";
    return kExitError;
  }
  bool created = !llvm::sys::fs::exists(*out);
  if (std::error_code ec = llvm::sys::fs::create_directories(*out)) {
    llvm::errs() << "normc: error: cannot create '" << *out
                 << "': " << ec.message() << "\n";
    return kExitError;
  }
  std::string error;
  {
    StagedFiles staged; // its temporary files go when it does
    for (auto &[name, bytes] : outputs) {
      llvm::SmallString<256> path(*out);
      llvm::sys::path::append(path, name);
      if (error.empty())
        error = staged.add(path.str().str(), bytes);
    }
    if (error.empty())
      error = staged.commit();
  }
  if (!error.empty()) {
    if (created) // DIR as it was: absent (remove() takes empty folders only)
      llvm::sys::fs::remove(*out);
    llvm::errs() << "normc: error: " << error << "\n";
    return kExitError;
  }
  llvm::errs() << llvm::format(
      "normc: ran %s%s on the %s: %lld rows x %lld "
      "in %.1f ms (with the kernel compile unless cached); wrote %zu "
      "file(s) to %s\n",
      spec->name.value.c_str(), backward ? " backward" : "",
      onCuda ? "cuda gpu" : "cpu", (long long)rows, (long long)d, ms,
      outputs.size(), out->c_str());

  if (!args->has("--check"))
    return 0;
  // The reference sees the inputs rounded to the spec's types, as the
  // kernel does.
  auto rounded = [&](const double *p, size_t count, dsl::DType type) {
    std::vector<double> v;
    if (p)
      for (size_t i = 0; i < count; ++i)
        v.push_back(reference::roundTo(type, p[i]));
    return v;
  };
  size_t cells = size_t(rows) * size_t(d);
  std::vector<double> rx = rounded(x, cells, spec->input.value),
                      rr = rounded(residual, cells, spec->input.value),
                      rg = rounded(gamma, d, spec->params.value),
                      rb = rounded(beta, d, spec->params.value),
                      rdy = rounded(dy, cells, spec->output.value),
                      rdh = rounded(dresidualOut, cells, spec->input.value);
  reference::Inputs refIn;
  refIn.x = rx.data();
  refIn.residual = residual ? rr.data() : nullptr;
  refIn.gamma = gamma ? rg.data() : nullptr;
  refIn.beta = beta ? rb.data() : nullptr;
  refIn.rows = rows;
  refIn.d = d;
  refIn.xStride = refIn.residualStride = d;
  llvm::errs() << "normc: against the float64 reference (<= 1 keeps the "
                  "promise):\n";
  bool kept = true;
  if (backward) {
    reference::GradientInputs gradIn;
    gradIn.forward = refIn;
    gradIn.dy = rdy.data();
    gradIn.dresidualOut = dresidualOut ? rdh.data() : nullptr;
    if (spec->bias.value && !beta) // the gradient does not depend on beta
      rb.assign(d, 0.0), gradIn.forward.beta = rb.data();
    reference::Gradients ref = reference::evaluateGradient(*spec, gradIn);
    auto dxReport = [&](const char *name, const std::vector<double> &got) {
      return report(name, got.size(), [&](size_t i) {
        return reference::dxErrorFraction(got[i], ref.dx[i], ref.dxScale[i],
                                          spec->input.value);
      });
    };
    auto paramReport = [&](const char *name, const std::vector<double> &got,
                           const std::vector<double> &want,
                           const std::vector<double> &scale,
                           const std::vector<double> &conditioning) {
      return report(name, got.size(), [&](size_t i) {
        return reference::paramGradErrorFraction(
            got[i], want[i], scale[i], spec->params.value,
            conditioning.empty() ? 0.0 : conditioning[i]);
      });
    };
    kept = dxReport("dx", result.dx);
    if (spec->residualAdd.value)
      kept &= dxReport("dresidual", result.dresidual);
    if (spec->gain.value)
      kept &= paramReport("dgamma", result.dgamma, ref.dgamma, ref.dgammaScale,
                          ref.dgammaConditioning);
    if (spec->bias.value)
      kept &= paramReport("dbeta", result.dbeta, ref.dbeta, ref.dbetaScale, {});
  } else {
    reference::Outputs ref = reference::evaluate(*spec, refIn);
    if (spec->quantized())
      kept = reportQuantized(*spec, result, ref, rows, d, scaleIn);
    else
      kept = reportForward("y", result.y, ref.y, spec->output.value,
                           ref.yConditioning);
    if (spec->residualAdd.value)
      kept &= reportForward("residual_out", result.residualOut, ref.residualOut,
                            spec->input.value);
    if (!ref.mean.empty())
      kept &= reportForward("mean", result.mean, ref.mean, dsl::DType::F32);
    if (!ref.rstd.empty())
      kept &= reportForward("rstd", result.rstd, ref.rstd, dsl::DType::F32);
  }
  if (!kept) {
    llvm::errs() << args->positional[0]
                 << ": error: the kernel breaks the promised bound\n";
    return kExitError;
  }
  return 0;
}
