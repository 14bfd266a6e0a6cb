//===- CpuDeviceBench.cpp - The CPU device on a Llama-sized RMSNorm -------===//
//
// 256 rows x 4096 bf16 llama_rmsnorm forward on the CPU device, once
// compiled, on one host thread (the target: under 100 ms). The same
// bytes copied with memcpy on this machine, in the same run, give the
// memory-bound floor the emulator is compared with.
//
//   build/bench/normc-cpu-device-bench
//
//===----------------------------------------------------------------------===//
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Runtime/CpuDevice.h"
#include "normc/Runtime/KernelArgs.h"

#include <benchmark/benchmark.h>

#include <cstring>
#include <stdexcept>

using namespace normc;

namespace {

constexpr int64_t kRows = 256, kCols = 4096;
constexpr int64_t kBytes = (2 * kRows * kCols + kCols) * 2; // x, y, gamma

struct Prepared {
  EmittedKernel kernel;
  cpu::CpuKernel entry;
};

Prepared prepare(bool specialize) {
  dsl::SpecParseResult parsed =
      dsl::parseSpecFile(NORMC_SPECS_DIR "/llama_rmsnorm.toml");
  if (!parsed.spec)
    throw std::runtime_error("cannot read llama_rmsnorm.toml");
  std::string errors;
  std::optional<EmittedKernel> kernel = emitSpecKernel(
      *parsed.spec, specialize ? std::optional<int64_t>(kCols) : std::nullopt,
      {}, errors);
  if (!kernel)
    throw std::runtime_error(errors);
  cpu::CpuModule module = cpu::CpuModule::compile(kernel->source);
  return {*kernel, module.kernel(kernel->info.name)};
}

void runKernel(benchmark::State &state, bool specialize) {
  Prepared p = prepare(specialize);
  std::vector<uint16_t> x(kRows * kCols, 0x3f80), gamma(kCols, 0x3f80),
      y(kRows * kCols);
  KernelArgs args;
  args.rows = kRows;
  args.cols = kCols;
  args.buffers = {{"x", x.data()}, {"gamma", gamma.data()}, {"y", y.data()}};
  PackedArgs packed(p.kernel.info, args);
  cpu::LaunchOptions options;
  options.hostThreads = 1;
  for (auto _ : state)
    cpu::launch(p.entry, {unsigned(p.kernel.info.gridFor(kRows)), 1, 1},
                {unsigned(p.kernel.info.blockSize), 1, 1},
                p.kernel.info.dynamicSharedBytes(kCols), packed.data(),
                options);
  state.SetBytesProcessed(state.iterations() * kBytes);
  state.counters["block"] = double(p.kernel.info.blockSize);
}

void BM_LlamaRmsNorm_FixedD(benchmark::State &state) { runKernel(state, true); }
void BM_LlamaRmsNorm_RunTimeD(benchmark::State &state) {
  runKernel(state, false);
}

// The floor: the same bytes moved by memcpy.
void BM_HostCopySameBytes(benchmark::State &state) {
  std::vector<char> from(kBytes / 2), to(kBytes / 2);
  for (auto _ : state) {
    std::memcpy(to.data(), from.data(), from.size());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBytes);
}

} // namespace

BENCHMARK(BM_LlamaRmsNorm_FixedD)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LlamaRmsNorm_RunTimeD)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HostCopySameBytes)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
