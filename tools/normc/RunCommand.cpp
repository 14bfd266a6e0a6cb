//===- RunCommand.cpp - normc run -----------------------------------------===//
#include "CommandLine.h"
#include "Commands.h"
#include "OutputFile.h"
#include "SpecInput.h"

#include "normc/Runtime/Api/HostRun.h"

#include "normc/Frontend/SpecCompiler.h"
#include "normc/Reference/Gradient.h"
#include "normc/Runtime/Cuda/CudaDriver.h"
#include "normc/Runtime/Host/Npy.h"
#include "normc/Runtime/Jit/SpecRunner.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <new>
#include <set>

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
a gate's z [rows, d], gamma [d], beta [d], Dynamic Tanh's and Derf's
alpha [1] and shift [1] the spec asks for: --z, --alpha, --shift). Inputs are float32, float64 or
float16 .npy files, rounded to the spec's types. Writes float32 .npy files
into DIR: y.npy, and where the spec asks, residual_out.npy, mean.npy,
rstd.npy. Nothing is written when anything fails.

With a quantized output (dtypes.output = "f8e4m3", "f8e5m2" or "i8"), y.npy
holds the fp8 or int8 values as float32, not multiplied by their scale, and
scale.npy [rows]
the scale of each row ([rows, ceil(d / block)] with [quantize] scale =
"block"); with [quantize] scale = "static", --scale S.npy [1]
gives the scale and amax.npy [rows] receives each row's largest |y|.

With --backward it runs the backward kernels for the gradient dy [rows, d]
arriving at y (and, with residual_add, DH [rows, d] arriving at
residual_out) and writes dx.npy, and where the spec has them,
dresidual.npy, dgamma.npy, dbeta.npy, dz.npy, dalpha.npy, dshift.npy.
--mean/--rstd [rows], a forward's
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
                   own rounding (see docs/fp8.md)
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

/// The fp8 promise (docs/fp8.md) for an fp8 y: each q against y_ref / s with
/// normc's own s, the scales (within 2^-16) or the amax against the
/// reference's.
bool reportQuantized(const dsl::Spec &spec, const RunOutputs &got,
                     const reference::Outputs &ref, int64_t rows, int64_t d,
                     const double *staticScale) {
  dsl::DType format = spec.output.value;
  reference::Quantization want = reference::quantization(
      spec, ref, rows, d, staticScale ? *staticScale : 1.0);
  bool kept = true;
  if (staticScale)
    kept = reportForward("amax", got["amax"], want.amax, dsl::DType::F32);
  else
    kept = report("scale", got["scale"].size(), [&](size_t i) {
      return reference::scaleErrorFraction(got["scale"][i], want.scale[i],
                                           want.scaleConditioning[i]);
    });
  reference::Fp8Count count =
      reference::countFp8(format, got["y"], ref, d,
                          staticScale ? std::vector<double>() : got["scale"],
                          staticScale ? *staticScale : 1.0, want.group);
  llvm::errs() << llvm::format(
      "  %-13s %zu of %zu values the reference's rounding (%.4f%%), %zu "
      "others accepted (near a midpoint), %zu wrong\n",
      format == dsl::DType::I8 ? "y (int8)" : "y (fp8)", count.exact,
      count.values, count.values ? 100.0 * count.exact / count.values : 100.0,
      count.accepted - count.exact, count.values - count.accepted);
  return kept && count.accepted == count.values;
}

/// Grades the outputs against the spec's float64 reference, printing the
/// worst error of each; whether every one keeps the promise.
bool checkAgainstReference(const dsl::Spec &spec, bool backward,
                           const RunInputs &in, const RunOutputs &result) {
  // The reference sees the inputs rounded to the spec's types, as the
  // kernel does.
  auto rounded = [&](const double *p, size_t count, dsl::DType type) {
    std::vector<double> v;
    if (p)
      for (size_t i = 0; i < count; ++i)
        v.push_back(reference::roundTo(type, p[i]));
    return v;
  };
  int64_t rows = in.rows, d = in.d;
  const double *x = in.get("x"), *residual = in.get("residual"),
               *gamma = in.get("gamma"), *beta = in.get("beta"),
               *dy = in.get("dy"), *dresidualOut = in.get("dresidual_out"),
               *z = in.get("z"), *alpha = in.get("alpha"),
               *shift = in.get("shift");
  size_t cells = size_t(rows) * size_t(d);
  std::vector<double> rx = rounded(x, cells, spec.input.value),
                      rr = rounded(residual, cells, spec.residualType()),
                      rg = rounded(gamma, d, spec.params.value),
                      rb = rounded(beta, d, spec.params.value),
                      rdy = rounded(dy, cells, spec.output.value),
                      rdh = rounded(dresidualOut, cells, spec.residualType()),
                      rz = rounded(z, cells, spec.input.value),
                      ralpha = rounded(alpha, 1, spec.params.value),
                      rshift = rounded(shift, 1, spec.params.value);
  reference::Inputs refIn;
  refIn.x = rx.data();
  refIn.residual = residual ? rr.data() : nullptr;
  refIn.gamma = gamma ? rg.data() : nullptr;
  refIn.beta = beta ? rb.data() : nullptr;
  refIn.z = z ? rz.data() : nullptr;
  refIn.alpha = alpha ? ralpha.data() : nullptr;
  refIn.shift = shift ? rshift.data() : nullptr;
  refIn.rows = rows;
  refIn.d = d;
  refIn.xStride = refIn.residualStride = refIn.zStride = d;
  llvm::errs() << "normc: against the float64 reference (<= 1 keeps the "
                  "promise):\n";
  bool kept = true;
  if (backward) {
    reference::GradientInputs gradIn;
    gradIn.forward = refIn;
    gradIn.dy = rdy.data();
    gradIn.dresidualOut = dresidualOut ? rdh.data() : nullptr;
    if (spec.bias.value && !beta) // the gradient does not depend on beta
      rb.assign(d, 0.0), gradIn.forward.beta = rb.data();
    reference::Gradients ref = reference::evaluateGradient(spec, gradIn);
    auto dxReport = [&](const char *name, const std::vector<double> &got,
                        dsl::DType type, const std::vector<double> &want,
                        const std::vector<double> &scale) {
      return report(name, got.size(), [&](size_t i) {
        return reference::dxErrorFraction(got[i], want[i], scale[i], type);
      });
    };
    auto paramReport = [&](const char *name, const std::vector<double> &got,
                           const std::vector<double> &want,
                           const std::vector<double> &scale,
                           const std::vector<double> &conditioning) {
      return report(name, got.size(), [&](size_t i) {
        return reference::paramGradErrorFraction(
            got[i], want[i], scale[i], reference::paramGradType(spec),
            conditioning.empty() ? 0.0 : conditioning[i]);
      });
    };
    kept = dxReport("dx", result["dx"], spec.input.value, ref.dx, ref.dxScale);
    if (spec.residualAdd.value)
      kept &= dxReport("dresidual", result["dresidual"], spec.residualType(),
                       ref.dx, ref.dxScale);
    if (spec.gated())
      kept &=
          dxReport("dz", result["dz"], spec.input.value, ref.dz, ref.dzScale);
    if (spec.gain.value)
      kept &= paramReport("dgamma", result["dgamma"], ref.dgamma,
                          ref.dgammaScale, ref.dgammaConditioning);
    if (spec.bias.value)
      kept &=
          paramReport("dbeta", result["dbeta"], ref.dbeta, ref.dbetaScale, {});
    if (!ref.dalpha.empty())
      kept &= paramReport("dalpha", result["dalpha"], ref.dalpha,
                          ref.dalphaScale, {});
    if (!ref.dshift.empty())
      kept &= paramReport("dshift", result["dshift"], ref.dshift,
                          ref.dshiftScale, {});
  } else {
    reference::Outputs ref = reference::evaluate(spec, refIn);
    if (spec.quantized())
      kept = reportQuantized(spec, result, ref, rows, d, in.get("scale"));
    else
      kept = reportForward("y", result["y"], ref.y, spec.output.value,
                           ref.yConditioning);
    if (spec.residualAdd.value)
      kept &= reportForward("residual_out", result["residual_out"],
                            ref.residualOut, spec.residualType());
    if (!ref.mean.empty())
      kept &= reportForward("mean", result["mean"], ref.mean, dsl::DType::F32);
    if (!ref.rstd.empty())
      kept &= reportForward("rstd", result["rstd"], ref.rstd, dsl::DType::F32);
  }
  return kept;
}

/// Flags name the arguments of the program run: --x, --dresidual-out.
std::string flagOf(const std::string &name) {
  std::string flag = "--" + name;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}
std::string nameOf(const std::string &flag) {
  std::string name = flag.substr(2);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

/// What the command line asks for.
struct RunRequest {
  std::string specPath, device, out;
  std::optional<std::string> kernelPath;
  bool backward = false, check = false;
  /// Input files by argument name.
  std::map<std::string, std::string> files;
};

std::optional<RunRequest> parseRun(int argc, char **argv, int &exitCode) {
  const std::vector<std::string> ownOptions = {"--out", "--device", "--kernel"};
  std::vector<std::string> valued = ownOptions;
  valued.push_back(kAnyOption); // an argument's file: --x X.npy, ...
  std::optional<ParsedArgs> args =
      parseCommand(argc, argv, "run", kRunUsage, valued,
                   {"--check", "--backward"}, exitCode);
  if (!args)
    return std::nullopt;
  exitCode = kExitUsage;
  RunRequest r;
  r.specPath = args->positional[0];
  r.device = args->get("--device").value_or("auto");
  if (r.device != "auto" && r.device != "cpu" && r.device != "cuda") {
    usageError("unknown device '" + r.device + "'; expected auto, cpu or cuda");
    return std::nullopt;
  }
  if (!args->has("--out")) {
    usageError("run needs --out DIR");
    return std::nullopt;
  }
  r.out = *args->get("--out");
  r.kernelPath = args->get("--kernel");
  if (r.kernelPath && r.device == "cuda") {
    usageError("--kernel runs on the CPU device; drop --device=cuda");
    return std::nullopt;
  }
  r.backward = args->has("--backward");
  r.check = args->has("--check");
  for (const auto &[flag, value] : args->options)
    if (flag != "--check" && flag != "--backward" &&
        std::find(ownOptions.begin(), ownOptions.end(), flag) ==
            ownOptions.end())
      r.files[nameOf(flag)] = value;
  return r;
}

/// The inputs of a signature (the arguments it only reads).
Signature inputsOf(const Signature &signature) {
  Signature out;
  for (const Argument &a : signature)
    if (!a.written)
      out.push_back(a);
  return out;
}

/// The program of `norm` the given files fit (the forward, or the backward
/// program that reads exactly them), or a usage error naming the file to
/// pass or drop.
std::optional<std::string> chooseProgram(const Norm &norm, bool backward,
                                         const std::set<std::string> &given,
                                         Signature &inputs, int &exitCode) {
  exitCode = kExitUsage;
  std::vector<std::string> programs =
      backward ? norm.backwardPrograms() : std::vector<std::string>{"forward"};
  if (programs.empty()) {
    try {
      norm.signature("backward");
    } catch (const Error &error) { // the compiler's positioned reason
      llvm::errs() << error.what() << "\n";
    }
    exitCode = kExitError;
    return std::nullopt;
  }
  std::vector<Signature> signatures;
  for (const std::string &program : programs)
    signatures.push_back(inputsOf(norm.signature(program)));
  std::vector<const Signature *> pointers;
  for (const Signature &s : signatures)
    pointers.push_back(&s);
  size_t nearest = nearestSignature(pointers, given);
  Mismatch m = mismatchOf(signatures[nearest], given);
  std::string what = "the " + programs[nearest] + " of '" + norm.name() + "'";
  if (!m.extra.empty()) {
    bool backwardReads = false;
    if (!backward)
      for (const std::string &program : norm.backwardPrograms())
        backwardReads |=
            findArgument(norm.signature(program), m.extra) != nullptr;
    usageError(what + " does not read " + m.extra + "; drop " +
               flagOf(m.extra) + (backwardReads ? ", or pass --backward" : ""));
    return std::nullopt;
  }
  if (m.missing) {
    usageError(what + " reads " + m.missing->name + " " +
               normc::shapeText(*m.missing) + "; pass " +
               flagOf(m.missing->name) + " FILE.npy");
    return std::nullopt;
  }
  inputs = signatures[nearest];
  return programs[nearest];
}

/// Reads one input file; a file that cannot be read names what it should
/// hold.
bool load(const std::string &path, const std::string &expected,
          npy::Array &array) {
  try {
    array = npy::read(path);
    return true;
  } catch (const npy::NpyError &error) {
    llvm::errs() << path << ": error: " << error.reason() << " (expected "
                 << expected << ")\n";
    return false;
  } catch (const std::bad_alloc &) {
    llvm::errs() << path << ": error: too large to load (expected " << expected
                 << ")\n";
    return false;
  }
}

/// Reads every input of the program: the first [rows, d] one gives rows
/// and d, every other is checked against its shape.
bool loadInputs(const RunRequest &r, const Signature &inputs,
                std::map<std::string, npy::Array> &arrays, RunInputs &in) {
  auto rowsByD =
      std::find_if(inputs.begin(), inputs.end(), [](const Argument &a) {
        return a.dims == std::vector{Argument::Dim::Rows, Argument::Dim::D};
      });
  if (rowsByD == inputs.end()) {
    llvm::errs() << r.specPath << ": error: the kernels read no [rows, d] "
                 << "input to take the shape from\n";
    return false;
  }
  const std::string &path = r.files.at(rowsByD->name);
  npy::Array &first = arrays[rowsByD->name];
  if (!load(path, rowsByD->name + " of shape [rows, d]", first))
    return false;
  if (first.shape.size() != 2 || first.shape[1] < 1) {
    llvm::errs() << path << ": error: " << rowsByD->name
                 << " must have shape [rows, d] with d >= 1, got "
                 << shapeText(first.shape) << "\n";
    return false;
  }
  in.rows = first.shape[0];
  in.d = first.shape[1];
  for (const Argument &a : inputs) {
    std::vector<int64_t> shape = a.shape(in.rows, in.d);
    npy::Array &array = arrays[a.name];
    const std::string &file = r.files.at(a.name);
    if (&array != &first &&
        (!load(file, a.name + " of shape " + shapeText(shape), array) ||
         !checkShape(file, array, shape, a.name.c_str())))
      return false;
    in.set(a.name, array.data.data());
  }
  return true;
}

/// Writes every output as a float32 .npy of its signature's shape into
/// DIR: all of them, or none.
bool writeOutputs(const RunRequest &r, const Signature &signature,
                  const RunInputs &in, const RunOutputs &result,
                  size_t &written) {
  std::vector<std::pair<std::string, std::string>> outputs;
  for (const Argument &a : signature) {
    if (!a.written)
      continue;
    std::vector<int64_t> shape = a.shape(in.rows, in.d);
    const std::vector<double> &values = result[a.name];
    if (values.size() != size_t(a.elements(in.rows, in.d))) {
      llvm::errs() << r.specPath << ": error: the kernels wrote no " << a.name
                   << "\n";
      return false;
    }
    std::vector<float> data(values.begin(), values.end());
    outputs.emplace_back(a.name + ".npy",
                         npy::encodeFloat32(shape, data.data()));
  }
  bool created = !llvm::sys::fs::exists(r.out);
  if (std::error_code ec = llvm::sys::fs::create_directories(r.out)) {
    llvm::errs() << "normc: error: cannot create '" << r.out
                 << "': " << ec.message() << "\n";
    return false;
  }
  std::string error;
  {
    StagedFiles staged; // its temporary files go when it does
    for (auto &[name, bytes] : outputs) {
      llvm::SmallString<256> path(r.out);
      llvm::sys::path::append(path, name);
      if (error.empty())
        error = staged.add(path.str().str(), bytes);
    }
    if (error.empty())
      error = staged.commit();
  }
  if (!error.empty()) {
    if (created) // DIR as it was: absent (remove() takes empty folders only)
      llvm::sys::fs::remove(r.out);
    llvm::errs() << "normc: error: " << error << "\n";
    return false;
  }
  written = outputs.size();
  return true;
}

} // namespace

int normc::tool::runRun(int argc, char **argv) {
  int exitCode = 0;
  std::optional<RunRequest> r = parseRun(argc, argv, exitCode);
  if (!r)
    return exitCode;
  std::optional<dsl::Spec> spec = readSpec(r->specPath);
  if (!spec)
    return kExitError;
  std::set<std::string> given;
  for (const auto &[name, file] : r->files)
    given.insert(name);

  bool onCuda = !r->kernelPath && (r->device == "cuda" ||
                                   (r->device == "auto" && cuda::available()));
  RunInputs in;
  RunOutputs result;
  Signature signature;
  std::map<std::string, npy::Array> arrays;
  auto start = std::chrono::steady_clock::now();
  try {
    if (r->kernelPath) {
      // Hand-edited IR: its own kernels say what they read.
      std::string errors;
      std::optional<EmittedModule> emitted = emitIRFile(*r->kernelPath, errors);
      if (!emitted)
        throw std::runtime_error("cannot compile the kernel:\n" + errors);
      signature = signatureOf(emitted->kernels);
      Mismatch m = mismatchOf(inputsOf(signature), given);
      if (!m.fits()) {
        usageError("the kernel of " + *r->kernelPath + " " + m.str());
        return kExitUsage;
      }
      if (!loadInputs(*r, inputsOf(signature), arrays, in))
        return kExitError;
      cpu::CpuModule module = cpu::CpuModule::compile(emitted->source);
      result = runModuleOnCpu(*spec, emitted->kernels, module, in);
    } else {
      RuntimeOptions options;
      options.device = onCuda ? DeviceKind::Cuda : DeviceKind::Cpu;
      Runtime runtime(options);
      Norm norm = runtime.loadSpecFile(r->specPath);
      Signature inputs;
      int exitCode = 0;
      std::optional<std::string> program =
          chooseProgram(norm, r->backward, given, inputs, exitCode);
      if (!program)
        return exitCode;
      signature = norm.signature(*program);
      if (!loadInputs(*r, inputs, arrays, in))
        return kExitError;
      start = std::chrono::steady_clock::now();
      result = runOnDevice(norm, *program, in);
    }
  } catch (const std::exception &error) {
    llvm::errs() << r->specPath << ": error: " << error.what() << "\n";
    return kExitError;
  }
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  size_t written = 0;
  if (!writeOutputs(*r, signature, in, result, written))
    return kExitError;
  llvm::errs() << llvm::format(
      "normc: ran %s%s on the %s: %lld rows x %lld "
      "in %.1f ms (with the kernel compile unless cached); wrote %zu "
      "file(s) to %s\n",
      spec->name.value.c_str(), r->backward ? " backward" : "",
      onCuda ? "cuda gpu" : "cpu", (long long)in.rows, (long long)in.d, ms,
      written, r->out.c_str());
  if (r->check && !checkAgainstReference(*spec, r->backward, in, result)) {
    llvm::errs() << r->specPath
                 << ": error: the kernel breaks the promised bound\n";
    return kExitError;
  }
  return 0;
}
