//===- Runtime.cpp - normc::Runtime and normc::Norm -----------------------===//
#include "Backend.h"
#include "KernelSource.h"
#include "Tuner.h"
#include "normc/Abi/EnvironmentSwitch.h"
#include "normc/Runtime/Cache/DiskCache.h"
#include "normc/Runtime/Cuda/CudaDriver.h"
#include "normc/normc.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <tuple>

using namespace normc;
using namespace normc::api;

namespace normc {

struct RuntimeState {
  std::string cacheDir;
  std::shared_ptr<Backend> backend;
  bool autotune = false;
  bool reproducible = false; // every spec, whatever it says
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
  /// Each program's signature, read off its kernels once.
  mutable std::mutex signatureMutex;
  mutable std::map<Program, Signature> signatures;

  const Signature &signature(const Program &program) const {
    std::lock_guard<std::mutex> lock(signatureMutex);
    auto it = signatures.find(program);
    if (it == signatures.end())
      it = signatures.emplace(program, signatureOf(source->anyKernels(program)))
               .first;
    return it->second;
  }

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

const std::string &Norm::canonical() const { return state->canonical; }

double Norm::gainOffset() const {
  return state->source->spec().gainOffset.value;
}

Signature Norm::signature(const std::string &program) const {
  std::optional<Program> parsed = Program::parse(program);
  if (!parsed)
    throw Error("no program '" + program +
                "': \"forward\" or one of backwardPrograms()");
  return state->signature(*parsed);
}

/// The backward programs of a spec, without those whose signature is an
/// earlier one's (saved statistics of a spec that keeps none).
static std::vector<Program> backwardsOf(const NormState &state) {
  std::vector<Program> out;
  std::vector<std::vector<std::string>> seen;
  for (const Program &program :
       Program::backwards(state.source->spec().residualAdd.value)) {
    std::vector<std::string> names;
    try {
      for (const Argument &a : state.signature(program))
        names.push_back(a.name);
    } catch (const Error &) {
      continue; // the spec has no such backward
    }
    if (std::find(seen.begin(), seen.end(), names) == seen.end()) {
      seen.push_back(names);
      out.push_back(program);
    }
  }
  return out;
}

std::vector<std::string> Norm::backwardPrograms() const {
  std::vector<std::string> out;
  for (const Program &program : backwardsOf(*state))
    out.push_back(program.str());
  return out;
}

static std::set<std::string> namesGiven(const Arguments &a) {
  std::set<std::string> names;
  for (const auto &[name, tensor] : a.tensors)
    names.insert(name);
  return names;
}

static void checkShape(int64_t rows, int64_t d) {
  std::string problem = shapeProblem(rows, d);
  if (!problem.empty())
    throw Error(problem);
}

/// Launches the kernels of `program` on the buffers of `a`; Error, before
/// any kernel runs, unless `a` names exactly their arguments.
static void launchOn(const NormState &state, const Program &program,
                     const LoadedKernel &kernel, const Arguments &a,
                     void *stream);

std::string Norm::prepare(int64_t d, int64_t rows) const {
  checkShape(rows, d);
  state->kernelFor(Program::forward(), d, rows);
  std::shared_lock<std::shared_mutex> lock(state->mutex);
  return state->schedules.at({Program::forward(), d, rowsBucket(rows)});
}

void Norm::forward(const Arguments &a, void *stream) const {
  checkShape(a.rows, a.d);
  launchOn(*state, Program::forward(),
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

void Norm::forwardWith(const std::string &schedule, const Arguments &a,
                       void *stream) const {
  checkShape(a.rows, a.d);
  launchOn(*state, Program::forward(),
           *state->kernelWith(Program::forward(), schedule, a.d), a, stream);
}

/// The backward program whose signature names exactly the arguments of
/// `a`; Error naming the nearest one's mismatch when none does.
static Program backwardProgram(const NormState &state, const Arguments &a) {
  const std::string &name = state.source->spec().name.value;
  std::vector<Program> programs = backwardsOf(state);
  if (programs.empty())
    state.signature(Program::gradient()); // throws why there is none
  std::set<std::string> given = namesGiven(a);
  std::vector<const Signature *> signatures;
  for (const Program &program : programs)
    signatures.push_back(&state.signature(program));
  size_t nearest = nearestSignature(signatures, given);
  Mismatch mismatch = mismatchOf(*signatures[nearest], given);
  if (mismatch.fits())
    return programs[nearest];
  throw Error("the " + programs[nearest].str() + " of '" + name + "' " +
              mismatch.str() + " (no backward takes exactly these arguments)");
}

void Norm::backward(const Arguments &a, void *stream) const {
  checkShape(a.rows, a.d);
  Program program = backwardProgram(*state, a);
  launchOn(*state, program, *state->kernelFor(program, a.d, a.rows), a, stream);
}

std::vector<std::string> Norm::backwardSchedules(int64_t d, bool savedStats,
                                                 bool dresidualOut) const {
  return scheduleTexts(*state->source,
                       Program::gradient(savedStats, dresidualOut), d,
                       state->runtime->backend->smVersion());
}

void Norm::backwardWith(const std::string &schedule, const Arguments &a,
                        void *stream) const {
  checkShape(a.rows, a.d);
  Program program = backwardProgram(*state, a);
  launchOn(*state, program, *state->kernelWith(program, schedule, a.d), a,
           stream);
}

static void launchOn(const NormState &state, const Program &program,
                     const LoadedKernel &kernel, const Arguments &a,
                     void *stream) {
  const Signature &signature = kernel.signature();
  KernelArgs args;
  args.rows = a.rows;
  args.d = a.d;
  size_t known = 0;
  for (const auto &[name, tensor] : a.tensors) {
    const Argument *argument = findArgument(signature, name);
    if (!argument)
      break;
    ++known;
    if (tensor.rowStride && !argument->strided)
      throw Error("'" + name + "' " + shapeText(*argument) +
                  " takes no row stride");
    if (tensor.data)
      args.buffers[name] = const_cast<void *>(tensor.data);
    if (tensor.rowStride)
      args.strides[name] = tensor.rowStride;
  }
  if (known != a.tensors.size() || known != signature.size())
    throw Error("the " + program.str() + " of '" +
                state.source->spec().name.value + "' " +
                mismatchOf(signature, namesGiven(a)).str());
  state.runtime->backend->launch(kernel, args, stream);
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
  if (std::optional<bool> on = environmentSwitch("NORMC_AUTOTUNE"))
    return *on;
  return kind == DeviceKind::Cuda;
}

static bool reproducibleDefault(const RuntimeOptions &options) {
  if (options.reproducible >= 0)
    return options.reproducible > 0;
  return environmentSwitch("NORMC_REPRODUCIBLE").value_or(false);
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
  state->reproducible = reproducibleDefault(options);
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

/// A spec to compile, in reproducible mode when the runtime asks for it.
static dsl::Spec specToCompile(const RuntimeState &runtime,
                               dsl::SpecParseResult result) {
  dsl::Spec spec = specOrThrow(std::move(result));
  spec.reproducible.value |= runtime.reproducible;
  return spec;
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

std::string Runtime::defaultCacheDir() { return cache::defaultCacheDir(); }

int64_t Runtime::clearCache(const std::string &cacheDir) {
  return cache::clearCache(cacheDir).files;
}

static void requireCompiler(const std::string &what) {
  if (!Runtime::canCompileSpecs())
    throw Error("this normc runtime was built without the compiler: load a "
                "kernel pack (normc compile --emit=pack) instead of '" +
                what + "'");
}

Norm Runtime::loadSpecFile(const std::string &path) {
  requireCompiler(path);
  dsl::Spec spec = specToCompile(*state, dsl::parseSpecFile(path));
  return makeNorm(state, makeJitSource(std::move(spec), state->emitted));
}

Norm Runtime::loadSpecString(const std::string &toml,
                             const std::string &fileName) {
  requireCompiler(fileName);
  dsl::Spec spec = specToCompile(*state, dsl::parseSpecString(toml, fileName));
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
  if (state->reproducible && !spec.reproducible.value)
    throw Error("the pack '" + dir +
                "' was not compiled in reproducible mode, which this runtime "
                "asks for: compile it from a spec with [numerics] "
                "reproducible = true");
  return makeNorm(state, makePackSource(std::move(pack), std::move(spec)));
}
