//===- RunCommand.cpp - normc run -----------------------------------------===//
#include "CommandLine.h"
#include "Commands.h"
#include "OutputFile.h"
#include "SpecInput.h"

#include "CudaRun.h"

#include "normc/Frontend/SpecCompiler.h"
#include "normc/Reference/Reference.h"
#include "normc/Runtime/CudaDriver.h"
#include "normc/Runtime/Npy.h"
#include "normc/Runtime/SpecRunner.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <new>

using namespace normc;
using namespace normc::tool;

static const char kRunUsage[] =
    R"(usage: normc run SPEC.toml --x X.npy [--residual R.npy] [--gamma G.npy]
                 [--beta B.npy] --out DIR [--device=auto|cpu|cuda]
                 [--kernel FILE.mlir] [--check]

Runs the spec's generated kernel on x [rows, d] (and the residual [rows, d],
gamma [d], beta [d] the spec asks for). Inputs are float32, float64 or
float16 .npy files, rounded to the spec's types. Writes float32 .npy files
into DIR: y.npy, and where the spec asks, residual_out.npy, mean.npy,
rstd.npy. Nothing is written when anything fails.

options:
  --device=WHERE   auto (default: a CUDA GPU when present, else the CPU),
                   cpu, or cuda
  --kernel FILE    run the kernel of this sched IR (row or kernel level,
                   e.g. a hand-edited --emit=sched or --emit=lowered output)
                   in place of the spec's own, on the CPU device; the spec
                   still says what it should compute
  --check          also evaluate the spec in float64, print the worst error
                   of each output as a fraction of the promised bound, and
                   exit 1 when one breaks it (the outputs are still written)
)";

namespace {
struct Loaded {
  npy::Array x, residual, gamma, beta;
};

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

/// Worst |y - ref| / bound over an output; prints it and returns whether
/// the output keeps the promise.
bool report(const char *name, const std::vector<double> &got,
            const std::vector<double> &ref, dsl::DType type) {
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i)
    worst = std::max(worst, reference::errorFraction(got[i], ref[i], type));
  llvm::errs() << llvm::format("  %-13s worst error %.3g of the bound\n", name,
                               worst);
  return worst <= 1.0;
}

/// The kernel of a sched IR file on the CPU device.
RunOutputs runIRFileOnCpu(const std::string &path, const dsl::Spec &spec,
                          const RunInputs &inputs) {
  std::string errors;
  std::optional<EmittedModule> emitted = emitIRFile(path, errors);
  if (!emitted)
    throw std::runtime_error("cannot compile the kernel:\n" + errors);
  if (emitted->kernels.size() != 1)
    throw std::runtime_error(path + " holds " +
                             std::to_string(emitted->kernels.size()) +
                             " kernels; a spec runs one");
  const KernelLaunchInfo &info = emitted->kernels.front();
  cpu::CpuModule module = cpu::CpuModule::compile(emitted->source);
  return runKernelOnCpu(spec, info, module.kernel(info.name), inputs);
}
} // namespace

int normc::tool::runRun(int argc, char **argv) {
  int exitCode = 0;
  std::optional<ParsedArgs> args =
      parseCommand(argc, argv, "run", kRunUsage,
                   {"--x", "--residual", "--gamma", "--beta", "--out",
                    "--device", "--kernel"},
                   {"--check"}, exitCode);
  if (!args)
    return exitCode;
  std::string device = args->get("--device").value_or("auto");
  if (device != "auto" && device != "cpu" && device != "cuda") {
    usageError("unknown device '" + device + "'; expected auto, cpu or cuda");
    return kExitUsage;
  }
  std::optional<std::string> xPath = args->get("--x"), out = args->get("--out");
  if (!xPath || !out) {
    usageError(std::string("run needs ") + (xPath ? "--out DIR" : "--x X.npy"));
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

  // Which inputs the spec reads, and which it was given.
  struct InputFlag {
    const char *flag;
    bool needed;
    const char *why;
  };
  const InputFlag flags[] = {
      {"--residual", spec->residualAdd.value, "residual_add = true"},
      {"--gamma", spec->gain.value, "gain = true"},
      {"--beta", spec->bias.value, "bias = true"}};
  for (const InputFlag &f : flags) {
    if (f.needed && !args->has(f.flag)) {
      usageError(std::string("the spec has ") + f.why + "; pass " + f.flag +
                 " FILE.npy");
      return kExitUsage;
    }
    if (!f.needed && args->has(f.flag)) {
      usageError(std::string("the spec does not read ") + (f.flag + 2) +
                 "; drop " + f.flag);
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
  Loaded in;
  if (!load(*xPath, "x of shape [rows, d]", in.x))
    return kExitError;
  if (in.x.shape.size() != 2) {
    llvm::errs() << *xPath << ": error: x must have shape [rows, d], got "
                 << shapeText(in.x.shape) << "\n";
    return kExitError;
  }
  std::string rowsByD = shapeText(in.x.shape), byD = shapeText({in.x.shape[1]});
  if ((spec->residualAdd.value &&
       !load(*args->get("--residual"), "the residual of shape " + rowsByD,
             in.residual)) ||
      (spec->gain.value &&
       !load(*args->get("--gamma"), "gamma of shape " + byD, in.gamma)) ||
      (spec->bias.value &&
       !load(*args->get("--beta"), "beta of shape " + byD, in.beta)))
    return kExitError;
  int64_t rows = in.x.shape[0], d = in.x.shape[1];
  if (d < 1) {
    llvm::errs() << *xPath << ": error: x needs at least one feature, got "
                 << shapeText(in.x.shape) << "\n";
    return kExitError;
  }
  if ((spec->residualAdd.value &&
       !checkShape(*args->get("--residual"), in.residual, {rows, d},
                   "the residual")) ||
      (spec->gain.value &&
       !checkShape(*args->get("--gamma"), in.gamma, {d}, "gamma")) ||
      (spec->bias.value &&
       !checkShape(*args->get("--beta"), in.beta, {d}, "beta")))
    return kExitError;

  bool onCuda = !kernelPath &&
                (device == "cuda" || (device == "auto" && cuda::available()));
  RunInputs inputs;
  inputs.rows = rows;
  inputs.d = d;
  inputs.x = in.x.data.data();
  inputs.residual = spec->residualAdd.value ? in.residual.data.data() : nullptr;
  inputs.gamma = spec->gain.value ? in.gamma.data.data() : nullptr;
  inputs.beta = spec->bias.value ? in.beta.data.data() : nullptr;
  RunOutputs result;
  auto start = std::chrono::steady_clock::now();
  try {
    if (kernelPath)
      result = runIRFileOnCpu(*kernelPath, *spec, inputs);
    else if (onCuda)
      result = runSpecOnCuda(args->positional[0], *spec, inputs);
    else
      result = runSpecOnCpu(*spec, inputs);
  } catch (const std::exception &error) {
    llvm::errs() << args->positional[0] << ": error: " << error.what() << "\n";
    return kExitError;
  }
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();

  // Encode every output first; write only when all are ready.
  std::vector<std::pair<std::string, std::string>> files;
  auto addFile = [&](const char *name, const std::vector<double> &values,
                     std::vector<int64_t> shape) {
    std::vector<float> data(values.begin(), values.end());
    files.emplace_back(name, npy::encodeFloat32(shape, data.data()));
  };
  addFile("y.npy", result.y, {rows, d});
  if (spec->residualAdd.value)
    addFile("residual_out.npy", result.residualOut, {rows, d});
  if (spec->saveStats.value && spec->center.value)
    addFile("mean.npy", result.mean, {rows});
  if (spec->saveStats.value)
    addFile("rstd.npy", result.rstd, {rows});
  if (std::error_code ec = llvm::sys::fs::create_directories(*out)) {
    llvm::errs() << "normc: error: cannot create '" << *out
                 << "': " << ec.message() << "\n";
    return kExitError;
  }
  StagedFiles staged;
  std::string error;
  for (auto &[name, bytes] : files) {
    llvm::SmallString<256> path(*out);
    llvm::sys::path::append(path, name);
    if (error.empty())
      error = staged.add(path.str().str(), bytes);
  }
  if (error.empty())
    error = staged.commit();
  if (!error.empty()) {
    llvm::errs() << "normc: error: " << error << "\n";
    return kExitError;
  }
  llvm::errs() << llvm::format(
      "normc: ran %s on the %s: %lld rows x %lld "
      "in %.1f ms (with the kernel compile unless cached); wrote %zu "
      "file(s) to %s\n",
      spec->name.value.c_str(), onCuda ? "cuda gpu" : "cpu", (long long)rows,
      (long long)d, ms, files.size(), out->c_str());

  if (args->has("--check")) {
    reference::Inputs refIn;
    refIn.x = inputs.x;
    refIn.residual = inputs.residual;
    refIn.gamma = inputs.gamma;
    refIn.beta = inputs.beta;
    refIn.rows = rows;
    refIn.d = d;
    refIn.xStride = refIn.residualStride = d;
    // The reference sees the inputs rounded to the spec's types, as the
    // kernel does.
    std::vector<double> x = in.x.data, residual = in.residual.data,
                        gamma = in.gamma.data, beta = in.beta.data;
    for (double &v : x)
      v = reference::roundTo(spec->input.value, v);
    for (double &v : residual)
      v = reference::roundTo(spec->input.value, v);
    for (double &v : gamma)
      v = reference::roundTo(spec->params.value, v);
    for (double &v : beta)
      v = reference::roundTo(spec->params.value, v);
    refIn.x = x.data();
    refIn.residual = inputs.residual ? residual.data() : nullptr;
    refIn.gamma = inputs.gamma ? gamma.data() : nullptr;
    refIn.beta = inputs.beta ? beta.data() : nullptr;
    reference::Outputs ref = reference::evaluate(*spec, refIn);
    llvm::errs() << "normc: against the float64 reference (<= 1 keeps the "
                    "promise):\n";
    bool kept = report("y", result.y, ref.y, spec->output.value);
    if (spec->residualAdd.value)
      kept &= report("residual_out", result.residualOut, ref.residualOut,
                     spec->input.value);
    if (!ref.mean.empty())
      kept &= report("mean", result.mean, ref.mean, dsl::DType::F32);
    if (!ref.rstd.empty())
      kept &= report("rstd", result.rstd, ref.rstd, dsl::DType::F32);
    if (!kept) {
      llvm::errs() << args->positional[0]
                   << ": error: the kernel breaks the promised bound\n";
      return kExitError;
    }
  }
  return 0;
}
