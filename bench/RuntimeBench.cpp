//===- RuntimeBench.cpp - Compile, cache and tuning latencies -------------===//
//
// The runtime's latency targets, each reported with `of_target`: the
// measured time over the target (below 1 meets it).
//   cold compile, spec -> CUBIN (MLIR pipeline + NVRTC)      < 250 ms
//   disk hit (a new process: spec parse, cached kernel load)  < 2 ms
//   in-memory hit (kernel lookup for a known shape)           < 5 us
// and the tuner's overhead for one shape on the CPU device, and the NVRTC
// part of a tuned first call (the candidates the cost model keeps,
// compiled in parallel as the tuner does; every candidate for comparison)
//                                                            < 1 s
//
//   build/bench/normc-runtime-bench
//
//===----------------------------------------------------------------------===//
#include "Tuner.h"
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Policy/Candidates.h"
#include "normc/Policy/CostModel.h"
#include "normc/Runtime/Cache/DiskCache.h"
#include "normc/Runtime/Nvrtc/Nvrtc.h"
#include "normc/normc.h"

#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <thread>

using namespace normc;

namespace {

const char kSpec[] = NORMC_SPECS_DIR "/llama_rmsnorm.toml";
constexpr int64_t kD = 4096, kRows = 256;

/// A cache folder of the benchmark's own, emptied at exit.
const std::string &cacheDir() {
  static const std::string dir = [] {
    char pattern[] = "/tmp/normc-bench-XXXXXX";
    std::string d = mkdtemp(pattern);
    std::atexit([] { std::filesystem::remove_all(cacheDir()); });
    return d;
  }();
  return dir;
}

/// Times the loop body like the framework, and reports mean / target.
template <typename Body>
void timed(benchmark::State &state, double targetSeconds, Body body) {
  auto start = std::chrono::steady_clock::now();
  for (auto _ : state)
    body();
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  state.counters["of_target"] =
      seconds / double(state.iterations()) / targetSeconds;
}

RuntimeOptions cpuOptions() {
  RuntimeOptions options;
  options.device = DeviceKind::Cpu;
  options.cacheDir = cacheDir();
  options.autotune = 0;
  return options;
}

void BM_ColdCompileSpecToCubin(benchmark::State &state) {
  dsl::SpecParseResult parsed = dsl::parseSpecFile(kSpec);
  nvrtc::Options options;
  options.arch = "sm_90";
  options.target = nvrtc::Target::Cubin;
  timed(state, 0.250, [&] {
    std::string errors;
    std::optional<EmittedKernel> kernel =
        emitSpecKernel(*parsed.spec, kD, {}, errors);
    nvrtc::Result cubin =
        nvrtc::compile(kernel->source, "llama_rmsnorm.cu", options);
    if (!cubin.ok)
      state.SkipWithError(cubin.error.c_str());
    benchmark::DoNotOptimize(cubin.binary.data());
  });
}

void BM_DiskHitNewProcess(benchmark::State &state) {
  Runtime(cpuOptions()).loadSpecFile(kSpec).prepare(kD, kRows); // warm
  timed(state, 0.002, [&] {
    Runtime runtime(cpuOptions()); // nothing in memory, as in a new process
    benchmark::DoNotOptimize(runtime.loadSpecFile(kSpec).prepare(kD, kRows));
  });
}

void BM_DiskHitCubinEntry(benchmark::State &state) {
  dsl::SpecParseResult parsed = dsl::parseSpecFile(kSpec);
  std::string errors;
  std::optional<EmittedKernel> kernel =
      emitSpecKernel(*parsed.spec, kD, {}, errors);
  nvrtc::Options options;
  options.target = nvrtc::Target::Cubin;
  std::string cubin = nvrtc::compile(kernel->source, "k.cu", options).binary;
  cache::DiskCache binaries(cacheDir(), "cuda");
  std::string key = cache::sha256Hex(kernel->source);
  binaries.put(key, cubin);
  timed(state, 0.002, [&] { benchmark::DoNotOptimize(binaries.get(key)); });
  state.counters["bytes"] = double(cubin.size());
}

void BM_InMemoryHit(benchmark::State &state) {
  Runtime runtime(cpuOptions());
  Norm norm = runtime.loadSpecFile(kSpec);
  norm.prepare(kD, kRows);
  timed(state, 5e-6,
        [&] { benchmark::DoNotOptimize(norm.prepare(kD, kRows)); });
}

void BM_TunerOverheadCpu(benchmark::State &state) {
  Runtime runtime(cpuOptions());
  Norm norm = runtime.loadSpecFile(kSpec);
  norm.tune(1024, 64); // compiles every candidate once
  for (auto _ : state)
    benchmark::DoNotOptimize(norm.tune(1024, 64));
}

/// The NVRTC part of a tuned first call at d = 4096 and 32768 rows on
/// sm_90: the candidates the tuner keeps (argument 1: 1) or every one
/// (0), compiled to CUBINs on one thread (argument 0: 1) or as many as the
/// machine has (0), as the tuner does.
void BM_TunedFirstCallNvrtc(benchmark::State &state) {
  dsl::SpecParseResult parsed = dsl::parseSpecFile(kSpec);
  std::string errors;
  auto compilation = SpecCompilation::create(*parsed.spec, kD, errors);
  ScheduleProblem problem = compilation->problem();
  problem.arch = 90;
  std::vector<Schedule> schedules = scheduleCandidates(problem);
  auto byDefault = compilation->emitModule(schedules.front(), errors);
  if (!byDefault) {
    state.SkipWithError(errors.c_str());
    return;
  }
  if (state.range(1))
    schedules = pruneCandidates(schedules, rowTraffic(byDefault->kernels), kD,
                                32768, problem.arch);
  std::vector<std::string> sources;
  for (const Schedule &s : schedules)
    if (auto module = compilation->emitModule(s, errors))
      sources.push_back(module->source);
  nvrtc::Options options;
  options.arch = "sm_90";
  options.target = nvrtc::Target::Cubin;
  std::atomic<int> failed{0};
  timed(state, 1.0, [&] {
    api::forEachInParallel(
        sources.size(),
        [&](size_t i) {
          failed += !nvrtc::compile(sources[i], "k.cu", options).ok;
        },
        static_cast<unsigned>(state.range(0)));
  });
  if (failed)
    state.SkipWithError("a candidate failed to compile");
  state.counters["candidates"] = double(sources.size());
  state.counters["threads"] = double(
      state.range(0) ? state.range(0) : std::thread::hardware_concurrency());
}

} // namespace

BENCHMARK(BM_ColdCompileSpecToCubin)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DiskHitNewProcess)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DiskHitCubinEntry)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_InMemoryHit)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TunerOverheadCpu)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_TunedFirstCallNvrtc)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Args({1, 0})
    ->Args({0, 0})
    ->Args({0, 1});
BENCHMARK_MAIN();
