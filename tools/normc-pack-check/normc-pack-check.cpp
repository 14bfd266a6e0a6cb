//===- normc-pack-check.cpp - Every kernel of a pack against the reference ===//
//
//   normc-pack-check [--device=auto|cpu|cuda] [--rows=N] PACK_DIR...
//   normc-pack-check --matrix [--cols=D,...] [--device=...] PACK_DIR...
//
// For each pack (normc compile --emit=pack), runs every schedule candidate
// of the forward and of the backward through the public API
// (Norm::forwardWith, Norm::backwardWith) on seeded inputs, with every
// output first filled with NaN, and grades it against the float64
// reference (docs/numerics.md); the backward runs twice, and its
// dgamma and dbeta must be the same bits both times. With --matrix it runs
// instead the kernels users get (Norm::forward and Norm::backward, tuned
// on CUDA) over the numerics suite's d x rows matrix. Prints one line per
// candidate or case and a summary; exits 1 when any breaks the bound or
// fails to run, and 77 with --device=cuda where no GPU can be used. Needs
// no LLVM: it is built by the runtime-only build too, for GPU machines
// (scripts/gpu-check.sh).
//
//===----------------------------------------------------------------------===//
#include "normc/Abi/Number.h"
#include "normc/Abi/Program.h"
#include "normc/Dsl/Spec.h"
#include "normc/Reference/Gradient.h"
#include "normc/Runtime/Api/HostRun.h"
#include "normc/Runtime/Cuda/CudaDriver.h"
#include "normc/Runtime/Host/Pack.h"
#include "normc/normc.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace normc;

namespace {

/// The exit status for "no CUDA GPU" with --device=cuda (ctest's
/// SKIP_RETURN_CODE).
constexpr int kSkipped = 77;

std::vector<double> draw(std::mt19937_64 &rng, size_t count, dsl::DType type,
                         double mean, double std) {
  std::normal_distribution<double> normal(mean, std);
  std::vector<double> v(count);
  for (double &e : v)
    e = reference::roundTo(type, normal(rng));
  return v;
}

/// `conditioning`, when not empty, holds each element's second term of the
/// bound (reference::Outputs::yConditioning).
double worstOf(const std::vector<double> &got, const std::vector<double> &ref,
               dsl::DType type, const std::vector<double> &conditioning = {}) {
  double worst = 0;
  for (size_t i = 0; i < ref.size(); ++i)
    worst = std::max(worst, reference::errorFraction(
                                got[i], ref[i], type,
                                conditioning.empty() ? 0 : conditioning[i]));
  return worst;
}

struct Tally {
  int passed = 0, failed = 0;
  void count(bool ok, const std::string &what, const std::string &note,
             double worst) {
    ok ? ++passed : ++failed;
    std::printf("%-4s %s: %s\n", ok ? "ok" : "FAIL", what.c_str(),
                note.empty() ? (std::to_string(worst) + " of the bound").c_str()
                             : note.c_str());
    std::fflush(stdout);
  }
  void add(const Tally &t) {
    passed += t.passed;
    failed += t.failed;
  }
};

/// A shared-memory row that does not fit the device at this d is refused at
/// load, as the tuner refuses it: not a wrong kernel.
bool refusedForSharedMemory(const std::string &note) {
  return note.find("shared memory") != std::string::npos;
}

/// Seeded inputs of one shape, rounded to the spec's types, and the float64
/// evaluation of the forward and of the backward on them.
struct Case {
  int64_t rows = 0, d = 0;
  std::vector<double> x, r, z, gamma, beta, alpha, shift, dy;
  reference::Outputs ref;
  reference::Gradients gradRef;

  /// The inputs by argument name (a program reads those it takes).
  RunInputs inputs() const {
    RunInputs in;
    in.rows = rows;
    in.d = d;
    auto set = [&](const char *name, const std::vector<double> &v) {
      if (!v.empty())
        in.set(name, v.data());
    };
    set("x", x);
    set("residual", r);
    set("z", z);
    set("gamma", gamma);
    set("beta", beta);
    set("alpha", alpha);
    set("shift", shift);
    set("dy", dy);
    return in;
  }
};

Case makeCase(const dsl::Spec &spec, int64_t rows, int64_t d, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Case c;
  c.rows = rows;
  c.d = d;
  c.x = draw(rng, rows * d, spec.input.value, 0, 1);
  if (spec.residualAdd.value)
    c.r = draw(rng, rows * d, spec.residualType(), 0, 1);
  if (spec.gated())
    c.z = draw(rng, rows * d, spec.input.value, 0, 2);
  if (spec.gain.value)
    c.gamma = draw(rng, d, spec.params.value, 1, 0.1);
  if (spec.bias.value)
    c.beta = draw(rng, d, spec.params.value, 0, 0.1);
  if (!spec.hasStatistics())
    c.alpha = draw(rng, 1, spec.params.value, 0.5, 0.1);
  if (spec.method.value == dsl::Method::Erf)
    c.shift = draw(rng, 1, spec.params.value, 0, 0.1);
  c.dy = draw(rng, rows * d, spec.output.value, 0, 1);
  reference::Inputs in;
  in.x = c.x.data();
  in.residual = c.r.empty() ? nullptr : c.r.data();
  in.gamma = c.gamma.empty() ? nullptr : c.gamma.data();
  in.beta = c.beta.empty() ? nullptr : c.beta.data();
  in.z = c.z.empty() ? nullptr : c.z.data();
  in.alpha = c.alpha.empty() ? nullptr : c.alpha.data();
  in.shift = c.shift.empty() ? nullptr : c.shift.data();
  in.rows = rows;
  in.d = d;
  in.xStride = in.residualStride = in.zStride = d;
  c.ref = reference::evaluate(spec, in);
  reference::GradientInputs gradIn;
  gradIn.forward = in;
  gradIn.dy = c.dy.data();
  c.gradRef = reference::evaluateGradient(spec, gradIn);
  return c;
}

/// Runs the forward of `norm` (its tuned kernel, or `schedule`) on `c`,
/// every output first filled with NaN; the worst error as a fraction of
/// the bound, and the saved statistics in `mean`/`rstd`.
double checkForward(const Norm &norm, const dsl::Spec &spec, const Case &c,
                    const std::string *schedule,
                    std::vector<double> *mean = nullptr,
                    std::vector<double> *rstd = nullptr) {
  RunOutputs out =
      runOnDevice(norm, "forward", c.inputs(), schedule ? *schedule : "");
  double worst =
      worstOf(out["y"], c.ref.y, spec.output.value, c.ref.yConditioning);
  if (spec.residualAdd.value)
    worst = std::max(worst, worstOf(out["residual_out"], c.ref.residualOut,
                                    spec.residualType()));
  if (!c.ref.mean.empty() && !out["mean"].empty()) {
    worst = std::max(worst, worstOf(out["mean"], c.ref.mean, dsl::DType::F32));
    if (mean)
      *mean = out["mean"];
  }
  if (!c.ref.rstd.empty() && !out["rstd"].empty()) {
    worst = std::max(worst, worstOf(out["rstd"], c.ref.rstd, dsl::DType::F32));
    if (rstd)
      *rstd = out["rstd"];
  }
  return worst;
}

/// The worst gradient error of a backward's outputs (docs/numerics.md).
double worstGradient(const dsl::Spec &spec, const reference::Gradients &ref,
                     const RunOutputs &out) {
  double worst = 0;
  auto dxWorst = [&](const std::vector<double> &v, dsl::DType type,
                     const std::vector<double> &want,
                     const std::vector<double> &scale) {
    for (size_t i = 0; i < want.size(); ++i)
      worst = std::max(
          worst, reference::dxErrorFraction(v[i], want[i], scale[i], type));
  };
  dxWorst(out["dx"], spec.input.value, ref.dx, ref.dxScale);
  if (spec.residualAdd.value)
    dxWorst(out["dresidual"], spec.residualType(), ref.dx, ref.dxScale);
  if (spec.gated())
    dxWorst(out["dz"], spec.input.value, ref.dz, ref.dzScale);
  auto paramWorst = [&](const char *name, const std::vector<double> &want,
                        const std::vector<double> &scale,
                        const std::vector<double> &conditioning) {
    const std::vector<double> &got = out[name];
    for (size_t i = 0; i < want.size(); ++i)
      worst = std::max(worst, reference::paramGradErrorFraction(
                                  got[i], want[i], scale[i],
                                  reference::paramGradType(spec),
                                  conditioning.empty() ? 0 : conditioning[i]));
  };
  paramWorst("dgamma", ref.dgamma, ref.dgammaScale, ref.dgammaConditioning);
  paramWorst("dbeta", ref.dbeta, ref.dbetaScale, {});
  paramWorst("dalpha", ref.dalpha, ref.dalphaScale, {});
  paramWorst("dshift", ref.dshift, ref.dshiftScale, {});
  return worst;
}

/// Runs the backward of `norm` (tuned, or `schedule`) twice on `c`, from
/// the saved statistics when given; the worst error, and in `note` what
/// broke when dgamma and dbeta differ between the runs.
double checkBackward(const Norm &norm, const dsl::Spec &spec, const Case &c,
                     const std::string *schedule, std::string &note,
                     const std::vector<double> &mean = {},
                     const std::vector<double> &rstd = {}) {
  RunInputs in = c.inputs();
  bool saved = !mean.empty() || !rstd.empty();
  if (!mean.empty())
    in.set("mean", mean.data());
  if (!rstd.empty())
    in.set("rstd", rstd.data());
  // The program that reads what is given: saved statistics or not.
  std::string program = Program::gradient(saved).str();
  double worst = 0;
  std::vector<double> firstBits;
  for (int run = 0; run < 2; ++run) {
    RunOutputs out = runOnDevice(norm, program, in, schedule ? *schedule : "");
    worst = std::max(worst, worstGradient(spec, c.gradRef, out));
    // The sums over rows, which must be the same bits every run.
    std::vector<double> dgamma;
    for (const char *name : {"dgamma", "dbeta", "dalpha", "dshift"})
      dgamma.insert(dgamma.end(), out[name].begin(), out[name].end());
    if (run == 0)
      firstBits = dgamma;
    else if (std::memcmp(firstBits.data(), dgamma.data(),
                         dgamma.size() * sizeof(double)) != 0)
      note = "the parameters' gradients differ between two runs";
  }
  return worst;
}

/// A pack and the spec it was made from.
struct LoadedPack {
  Pack pack;
  dsl::Spec spec;
  Norm norm;
};

std::optional<LoadedPack> loadPack(const std::string &dir, Runtime &runtime) {
  Pack pack = readPack(dir);
  dsl::SpecParseResult parsed =
      dsl::parseSpecString(pack.specToml, dir + "/spec.toml");
  if (!parsed.spec) {
    std::printf("%s: error: the pack's spec does not parse\n", dir.c_str());
    return std::nullopt;
  }
  return LoadedPack{std::move(pack), *parsed.spec, runtime.loadPack(dir)};
}

/// Runs every candidate of one pack at hidden size d; returns the tally.
Tally checkCandidates(const LoadedPack &p, int64_t rows) {
  Tally tally;
  const dsl::Spec &spec = p.spec;
  // A pack for d at run time is checked at an odd d.
  int64_t d = p.pack.d.value_or(1001);
  Case c = makeCase(spec, rows, d, 17);
  for (const std::string &schedule : p.norm.schedules(d)) {
    double worst = 0;
    std::string note;
    try {
      worst = checkForward(p.norm, spec, c, &schedule);
    } catch (const std::exception &error) {
      note = error.what();
    }
    tally.count(refusedForSharedMemory(note) || (note.empty() && worst <= 1.0),
                spec.name.value + " d=" + std::to_string(d) + " " + schedule,
                note, worst);
  }
  for (const std::string &schedule : p.norm.backwardSchedules(d)) {
    double worst = 0;
    std::string note;
    try {
      worst = checkBackward(p.norm, spec, c, &schedule, note);
    } catch (const std::exception &error) {
      note = error.what();
    }
    tally.count(refusedForSharedMemory(note) || (note.empty() && worst <= 1.0),
                spec.name.value + " backward d=" + std::to_string(d) + " " +
                    schedule,
                note, worst);
  }
  return tally;
}

/// The numerics matrix through the kernels users get (Norm::forward and
/// Norm::backward, tuned where the runtime tunes): every d of `ds` (a
/// pack for one d: that d) x rows 0, 1, 3 and 257 (1 only above 16384),
/// forward, backward and, where the spec saves statistics, the backward
/// that reads them.
Tally checkMatrix(const LoadedPack &p, const std::vector<int64_t> &ds) {
  Tally tally;
  const dsl::Spec &spec = p.spec;
  std::string input(dsl::toString(spec.input.value));
  std::vector<int64_t> checked =
      p.pack.d ? std::vector<int64_t>{*p.pack.d} : ds;
  uint64_t seed = 100;
  for (int64_t d : checked) {
    for (int64_t rows : {0, 1, 3, 257}) {
      if (d > 16384 && rows > 1)
        continue;
      Case c = makeCase(spec, rows, d, ++seed);
      std::string what = spec.name.value + " input=" + input +
                         " d=" + std::to_string(d) +
                         " rows=" + std::to_string(rows);
      double forward = 0, backward = 0, saved = 0;
      std::string note;
      try {
        std::vector<double> mean, rstd;
        forward = checkForward(p.norm, spec, c, nullptr, &mean, &rstd);
        backward = checkBackward(p.norm, spec, c, nullptr, note);
        if (spec.saveStats.value && rows > 0)
          saved =
              checkBackward(p.norm, spec, c, nullptr, note,
                            spec.center.value ? mean : std::vector<double>(),
                            spec.scale.value ? rstd : std::vector<double>());
      } catch (const std::exception &error) {
        note = error.what();
      }
      double worst = std::max({forward, backward, saved});
      char figures[160];
      std::snprintf(figures, sizeof figures,
                    "forward %.3g, backward %.3g, from saved statistics %.3g "
                    "of the bound",
                    forward, backward, saved);
      tally.count(note.empty() && worst <= 1.0, what,
                  note.empty() ? figures : note, worst);
    }
  }
  return tally;
}

/// "7,64,1000" as numbers; empty on anything else.
std::vector<int64_t> parseDs(const std::string &text) {
  std::vector<int64_t> ds;
  size_t at = 0;
  while (at <= text.size()) {
    size_t comma = std::min(text.find(',', at), text.size());
    std::string item = text.substr(at, comma - at);
    if (item.empty() || item.find_first_not_of("0123456789") != item.npos ||
        item.size() > 7)
      return {};
    ds.push_back(*parseWholeNumber(item));
    at = comma + 1;
  }
  return ds;
}

} // namespace

int main(int argc, char **argv) {
  RuntimeOptions options;
  options.autotune = 0;
  int64_t rows = 37;
  bool matrix = false;
  std::vector<int64_t> ds = {1, 7, 64, 127, 1000, 4096, 4097, 12288, 65536};
  std::vector<std::string> packs;
  bool optionsEnded = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::optional<int64_t> number = arg.rfind("--rows=", 0) == 0
                                        ? parseWholeNumber(arg.substr(7))
                                        : std::nullopt;
    if (optionsEnded || (!arg.empty() && arg[0] != '-'))
      packs.push_back(arg);
    else if (arg == "--")
      optionsEnded = true;
    else if (arg == "--device=cpu")
      options.device = DeviceKind::Cpu;
    else if (arg == "--device=cuda")
      options.device = DeviceKind::Cuda;
    else if (number && *number >= 1 && *number <= (1 << 20))
      rows = *number;
    else if (arg == "--matrix")
      matrix = true;
    else if (arg.rfind("--cols=", 0) == 0 &&
             !(ds = parseDs(arg.substr(7))).empty())
      continue;
    else if (arg == "--device=auto")
      continue;
    else {
      std::fprintf(stderr,
                   "usage: %s [--device=auto|cpu|cuda] [--rows=N] "
                   "[--matrix [--cols=D,...]] PACK...\n",
                   argv[0]);
      return 2;
    }
  }
  if (packs.empty()) {
    std::fprintf(stderr, "%s: error: no pack given\n", argv[0]);
    return 2;
  }
  std::string why;
  if (options.device == DeviceKind::Cuda && !cuda::available(&why)) {
    std::printf("skipped: no CUDA GPU: %s\n", why.c_str());
    return kSkipped;
  }
  // The matrix runs the kernels users get: tuned on CUDA, as by default.
  if (matrix && options.device == DeviceKind::Cuda)
    options.autotune = 1;
  try {
    Runtime runtime(options);
    std::printf("device: %s\n", runtime.deviceName().c_str());
    Tally total;
    for (const std::string &dir : packs) {
      std::optional<LoadedPack> p = loadPack(dir, runtime);
      if (!p) {
        ++total.failed;
        continue;
      }
      total.add(matrix ? checkMatrix(*p, ds) : checkCandidates(*p, rows));
    }
    std::printf("summary: %d %s keep the bound, %d fail\n", total.passed,
                matrix ? "cases" : "candidate kernels", total.failed);
    return total.failed ? 1 : 0;
  } catch (const std::exception &error) {
    std::fprintf(stderr, "%s: error: %s\n", argv[0], error.what());
    return 1;
  }
}
