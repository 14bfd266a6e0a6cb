//===- Runtime.cpp - normc::Runtime and normc::Norm -----------------------===//
#include "Backend.h"
#include "KernelSource.h"
#include "Tuner.h"
#include "normc/Runtime/CudaDriver.h"
#include "normc/Runtime/DiskCache.h"
#include "normc/normc.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <tuple>

using namespace normc;
using namespace normc::api;

namespace normc {

struct RuntimeState {
  std::string cacheDir;
  std::shared_ptr<Backend> backend;
  bool autotune = false;
  std::shared_ptr<TuningDatabase> tuning;
  std::shared_ptr<cache::TwoLevelCache> emitted; // JIT-emitted kernels
};

struct NormState {
  std::shared_ptr<RuntimeState> runtime;
  std::unique_ptr<KernelSource> source;
  std::string canonical;

  /// The kernels per (program, d, rows bucket). Lookups share the lock;
  /// the first use of a shape compiles (and maybe tunes) under `compiling`,
  /// one shape at a time per Norm.
  using Key = std::tuple<Program, int64_t, int64_t>;
  mutable std::shared_mutex mutex;
  mutable std::mutex compiling;
  mutable std::map<Key, std::shared_ptr<LoadedKernel>> kernels;
  mutable std::map<Key, std::string> schedules;

  std::shared_ptr<LoadedKernel> kernelFor(const Program &program, int64_t d,
                                          int64_t rows) const;
  /// The kernels of one candidate of the program, or Error.
  std::shared_ptr<LoadedKernel> kernelWith(const Program &program,
                                           const std::string &schedule,
                                           int64_t d) const;
  std::shared_ptr<LoadedKernel> find(const Key &key) const {
    std::shared_lock<std::shared_mutex> lock(mutex);
    auto it = kernels.find(key);
    return it == kernels.end() ? nullptr : it->second;
  }
  void keep(const Key &key, std::shared_ptr<LoadedKernel> k,
            std::string schedule) const {
    std::unique_lock<std::shared_mutex> lock(mutex);
    kernels[key] = std::move(k);
    schedules[key] = std::move(schedule);
  }
};

} // namespace normc

std::shared_ptr<LoadedKernel>
NormState::kernelFor(const Program &program, int64_t d, int64_t rows) const {
  Key key{program, d, rowsBucket(rows)};
  if (auto hit = find(key))
    return hit;
  std::lock_guard<std::mutex> serialize(compiling);
  if (auto hit = find(key))
    return hit;
  Backend &backend = *runtime->backend;
  std::string deviceKey = backend.deviceKey();
  // An earlier winner from the tuning database, then tuning, then the
  // heuristic default.
  // A stored schedule is used only when it is one of the candidates, which
  // are all tested: a planted or stale entry cannot pick an untested kernel.
  std::vector<Schedule> candidates =
      source->schedules(program, d, backend.smVersion());
  std::optional<Schedule> known =
      runtime->tuning->lookupNear(deviceKey, canonical, program, d, rows);
  if (known && std::find(candidates.begin(), candidates.end(), *known) !=
                   candidates.end()) {
    try {
      auto kernel =
          backend.load(source->kernel(program, d, *known), canonical, d);
      keep(key, kernel, known->str());
      return kernel;
    } catch (const Error &) {
      // A stale entry (another pack, a changed device): choose anew.
    }
  }
  if (runtime->autotune) {
    std::shared_ptr<LoadedKernel> winner;
    TuneReport report =
        tuneCandidates(backend, *source, canonical, program, d, rows, winner);
    runtime->tuning->store(deviceKey, canonical, program, d, rows,
                           *Schedule::parse(report.winner));
    keep(key, winner, report.winner);
    return winner;
  }
  // The heuristic's schedule. Kernels for any d re-read rows from global
  // memory; where this d fits the device's shared memory, the same
  // schedule keeping rows there reads x once.
  Schedule chosen = candidates.front();
  Schedule staged = chosen;
  staged.rowStorage = RowStorage::Shared;
  if (!source->fixesD() && chosen.rowStorage == RowStorage::Global &&
      std::find(candidates.begin(), candidates.end(), staged) !=
          candidates.end()) {
    try {
      auto kernel =
          backend.load(source->kernel(program, d, staged), canonical, d);
      keep(key, kernel, staged.str());
      return kernel;
    } catch (const Error &) {
      // Too much shared memory at this d, or any other reason the staged
      // kernel does not load (a spill on this GPU): the re-reading one is
      // the heuristic's own choice and always there to fall back on.
    }
  }
  auto kernel = backend.load(source->kernel(program, d, chosen), canonical, d);
  keep(key, kernel, chosen.str());
  return kernel;
}

std::shared_ptr<LoadedKernel> NormState::kernelWith(const Program &program,
                                                    const std::string &schedule,
                                                    int64_t d) const {
  std::optional<Schedule> wanted = Schedule::parse(schedule);
  std::vector<Schedule> candidates =
      source->schedules(program, d, runtime->backend->smVersion());
  if (!wanted || std::find(candidates.begin(), candidates.end(), *wanted) ==
                     candidates.end())
    throw Error("'" + schedule + "' is not a schedule candidate of the " +
                program.str() + " of '" + source->spec().name.value +
                "' at d = " + std::to_string(d));
  return runtime->backend->load(source->kernel(program, d, *wanted), canonical,
                                d);
}

//===----------------------------------------------------------------------===//
// Norm
//===----------------------------------------------------------------------===//

Norm::Norm(std::shared_ptr<NormState> state) : state(std::move(state)) {}

const std::string &Norm::name() const {
  return state->source->spec().name.value;
}

DeviceKind Norm::device() const { return state->runtime->backend->kind(); }

NormSignature Norm::signature() const {
  const dsl::Spec &spec = state->source->spec();
  NormSignature s;
  s.input = dsl::toString(spec.input.value);
  s.output = dsl::toString(spec.output.value);
  s.params = dsl::toString(spec.params.value);
  s.residual = s.residualOut = spec.residualAdd.value;
  s.gamma = spec.gain.value;
  s.beta = spec.bias.value;
  s.mean = spec.saveStats.value && spec.center.value;
  s.rstd = spec.saveStats.value;
  s.centered = spec.center.value;
  s.scaled = spec.scale.value;
  s.gainOffset = spec.gainOffset.value;
  if (spec.quantized())
    s.quantizeScale = dsl::toString(spec.quantizeScale.value);
  if (spec.quantized() && spec.quantizeScale.value == dsl::QuantizeScale::Block)
    s.quantizeBlock = static_cast<int64_t>(spec.quantizeBlock.value);
  s.canonical = state->canonical;
  return s;
}

static void checkShape(int64_t rows, int64_t d) {
  std::string problem = shapeProblem(rows, d);
  if (!problem.empty())
    throw Error(problem);
}

/// Launches `kernel` on the buffers of `a`.
static void launchOn(Backend &backend, const LoadedKernel &kernel,
                     const ForwardArgs &a, void *stream);
static void launchOn(Backend &backend, const LoadedKernel &kernel,
                     const BackwardArgs &a, void *stream);

std::string Norm::prepare(int64_t d, int64_t rows) const {
  checkShape(rows, d);
  state->kernelFor(Program::forward(), d, rows);
  std::shared_lock<std::shared_mutex> lock(state->mutex);
  return state->schedules.at({Program::forward(), d, rowsBucket(rows)});
}

void Norm::forward(const ForwardArgs &a, void *stream) const {
  checkShape(a.rows, a.d);
  launchOn(*state->runtime->backend,
           *state->kernelFor(Program::forward(), a.d, a.rows), a, stream);
}

static std::vector<std::string> scheduleTexts(const KernelSource &source,
                                              const Program &program, int64_t d,
                                              int arch) {
  checkShape(0, d);
  std::vector<std::string> out;
  for (const Schedule &s : source.schedules(program, d, arch))
    out.push_back(s.str());
  return out;
}

std::vector<std::string> Norm::schedules(int64_t d) const {
  return scheduleTexts(*state->source, Program::forward(), d,
                       state->runtime->backend->smVersion());
}

void Norm::forwardWith(const std::string &schedule, const ForwardArgs &a,
                       void *stream) const {
  checkShape(a.rows, a.d);
  launchOn(*state->runtime->backend,
           *state->kernelWith(Program::forward(), schedule, a.d), a, stream);
}

/// The backward program the arguments ask for; Error when they do not fit
/// the spec.
static Program backwardProgram(const dsl::Spec &spec, const BackwardArgs &a) {
  const std::string &name = spec.name.value;
  if (spec.quantized())
    throw Error("'" + name + "' has an fp8 output (" +
                std::string(dsl::toString(spec.output.value)) +
                "), which has no backward (contract section 7)");
  bool saved = a.mean || a.rstd;
  if (a.mean && !spec.center.value)
    throw Error("'" + name + "' is not centered and has no mean to pass");
  if (saved && spec.center.value && !a.mean)
    throw Error("'" + name +
                "' is centered: saved statistics need the mean "
                "as well as rstd");
  if (saved && spec.scale.value && !a.rstd)
    throw Error("'" + name +
                "' scales: saved statistics need rstd as well "
                "as the mean");
  if (a.dresidualOut && !spec.residualAdd.value)
    throw Error("'" + name + "' has no residual_add: drop dresidualOut");
  return Program::gradient(saved, a.dresidualOut != nullptr);
}

void Norm::backward(const BackwardArgs &a, void *stream) const {
  checkShape(a.rows, a.d);
  Program program = backwardProgram(state->source->spec(), a);
  launchOn(*state->runtime->backend, *state->kernelFor(program, a.d, a.rows), a,
           stream);
}

std::vector<std::string> Norm::backwardSchedules(int64_t d, bool savedStats,
                                                 bool dresidualOut) const {
  return scheduleTexts(*state->source,
                       Program::gradient(savedStats, dresidualOut), d,
                       state->runtime->backend->smVersion());
}

void Norm::backwardWith(const std::string &schedule, const BackwardArgs &a,
                        void *stream) const {
  checkShape(a.rows, a.d);
  Program program = backwardProgram(state->source->spec(), a);
  launchOn(*state->runtime->backend, *state->kernelWith(program, schedule, a.d),
           a, stream);
}

/// Collects named buffers and row strides (0: d, left out).
struct ArgsBuilder {
  KernelArgs args;
  ArgsBuilder(int64_t rows, int64_t d) {
    args.rows = rows;
    args.cols = d;
  }
  void buffer(const char *name, const void *p, int64_t stride = 0) {
    if (p)
      args.buffers[name] = const_cast<void *>(p);
    if (stride)
      args.strides[name] = stride;
  }
};

static void launchOn(Backend &backend, const LoadedKernel &kernel,
                     const BackwardArgs &a, void *stream) {
  ArgsBuilder b(a.rows, a.d);
  b.buffer("x", a.x, a.xStride);
  b.buffer("residual", a.residual, a.residualStride);
  b.buffer("gamma", a.gamma);
  b.buffer("dy", a.dy, a.dyStride);
  b.buffer("dresidual_out", a.dresidualOut, a.dresidualOutStride);
  b.buffer("mean", a.mean);
  b.buffer("rstd", a.rstd);
  b.buffer("dx", a.dx, a.dxStride);
  b.buffer("dresidual", a.dresidual, a.dresidualStride);
  b.buffer("dgamma", a.dgamma);
  b.buffer("dbeta", a.dbeta);
  backend.launch(kernel, b.args, stream);
}

static void launchOn(Backend &backend, const LoadedKernel &kernel,
                     const ForwardArgs &a, void *stream) {
  ArgsBuilder b(a.rows, a.d);
  b.buffer("x", a.x, a.xStride);
  b.buffer("residual", a.residual, a.residualStride);
  b.buffer("gamma", a.gamma);
  b.buffer("beta", a.beta);
  b.buffer("y", a.y, a.yStride);
  b.buffer("residual_out", a.residualOut, a.residualOutStride);
  b.buffer("mean", a.mean);
  b.buffer("rstd", a.rstd);
  b.buffer("scale", a.scale);
  b.buffer("static_scale", a.staticScale);
  b.buffer("amax", a.amax);
  backend.launch(kernel, b.args, stream);
}

/// Measures every candidate of `program`, stores the winner and uses it.
static TuneReport
tuneProgram(const NormState &state, const Program &program, int64_t d,
            int64_t rows,
            const std::function<void(const TuneResult &)> &progress) {
  if (d < 1 || rows < 1)
    throw Error("tuning needs d >= 1 and rows >= 1");
  std::lock_guard<std::mutex> serialize(state.compiling);
  std::shared_ptr<LoadedKernel> winner;
  TuneReport report =
      tuneCandidates(*state.runtime->backend, *state.source, state.canonical,
                     program, d, rows, winner, progress);
  state.runtime->tuning->store(state.runtime->backend->deviceKey(),
                               state.canonical, program, d, rows,
                               *Schedule::parse(report.winner));
  state.keep({program, d, rowsBucket(rows)}, winner, report.winner);
  return report;
}

TuneReport
Norm::tune(int64_t d, int64_t rows,
           const std::function<void(const TuneResult &)> &progress) const {
  return tuneProgram(*state, Program::forward(), d, rows, progress);
}

TuneReport Norm::tuneBackward(
    int64_t d, int64_t rows,
    const std::function<void(const TuneResult &)> &progress) const {
  return tuneProgram(*state, Program::gradient(), d, rows, progress);
}

//===----------------------------------------------------------------------===//
// Runtime
//===----------------------------------------------------------------------===//

static bool autotuneDefault(const RuntimeOptions &options, DeviceKind kind) {
  if (options.autotune >= 0)
    return options.autotune > 0;
  if (const char *env = std::getenv("NORMC_AUTOTUNE"))
    return std::string(env) != "0";
  return kind == DeviceKind::Cuda;
}

Runtime::Runtime(const RuntimeOptions &options)
    : state(std::make_shared<RuntimeState>()) {
  state->cacheDir =
      options.cacheDir.empty() ? cache::defaultCacheDir() : options.cacheDir;
  DeviceKind kind = options.device;
  if (kind == DeviceKind::Auto)
    kind = cuda::available() ? DeviceKind::Cuda : DeviceKind::Cpu;
  state->backend = kind == DeviceKind::Cuda
                       ? makeCudaBackend(options.cudaDevice, state->cacheDir)
                       : makeCpuBackend(state->cacheDir, options.cpuHeaderDir);
  state->autotune = autotuneDefault(options, kind);
  state->tuning = std::make_shared<TuningDatabase>(state->cacheDir);
  state->emitted = std::make_shared<cache::TwoLevelCache>(
      cache::DiskCache(state->cacheDir, "source"));
}

DeviceKind Runtime::device() const { return state->backend->kind(); }
std::string Runtime::deviceName() const { return state->backend->deviceName(); }

static dsl::Spec specOrThrow(dsl::SpecParseResult result) {
  if (!result.spec) {
    std::string message;
    for (const dsl::Diagnostic &d : result.diagnostics)
      if (d.severity == dsl::Severity::Error)
        message += (message.empty() ? "" : "\n") + d.str();
    throw Error(message);
  }
  return std::move(*result.spec);
}

static Norm makeNorm(const std::shared_ptr<RuntimeState> &runtime,
                     std::unique_ptr<KernelSource> source) {
  auto state = std::make_shared<NormState>();
  state->runtime = runtime;
  state->canonical = source->spec().canonical();
  state->source = std::move(source);
  return Norm(state);
}

bool Runtime::canCompileSpecs() { return haveCompiler(); }

static void requireCompiler(const std::string &what) {
  if (!Runtime::canCompileSpecs())
    throw Error("this normc runtime was built without the compiler: load a "
                "kernel pack (normc compile --emit=pack) instead of '" +
                what + "'");
}

Norm Runtime::loadSpecFile(const std::string &path) {
  requireCompiler(path);
  dsl::Spec spec = specOrThrow(dsl::parseSpecFile(path));
  return makeNorm(state, makeJitSource(std::move(spec), state->emitted));
}

Norm Runtime::loadSpecString(const std::string &toml,
                             const std::string &fileName) {
  requireCompiler(fileName);
  dsl::Spec spec = specOrThrow(dsl::parseSpecString(toml, fileName));
  return makeNorm(state, makeJitSource(std::move(spec), state->emitted));
}

Norm Runtime::loadPack(const std::string &dir) {
  Pack pack;
  try {
    pack = readPack(dir);
  } catch (const PackError &error) {
    throw Error(error.what());
  }
  dsl::Spec spec =
      specOrThrow(dsl::parseSpecString(pack.specToml, dir + "/spec.toml"));
  return makeNorm(state, makePackSource(std::move(pack), std::move(spec)));
}
