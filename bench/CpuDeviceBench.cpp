//===- CpuDeviceBench.cpp - The CPU device on a Llama-sized RMSNorm -------===//
//
// 256 rows x 4096 bf16 llama_rmsnorm forward and backward on the CPU
// device, once compiled, on one host thread (the forward's target: under
// 100 ms). The same bytes copied with memcpy on this machine, in the same
// run, give the memory-bound floor the emulator is compared with. Each
// benchmark reports the bytes its kernels must move per element of
// [rows, d] (`bytes_per_element`: x and y forward; x, dy and dx backward),
// the figure a GPU run compares with the copy limit.
//
//   build/bench/normc-cpu-device-bench
//
//===----------------------------------------------------------------------===//
#include "normc/Abi/Signature.h"
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Runtime/Cpu/CpuDevice.h"
#include "normc/Runtime/Host/HostData.h"
#include "normc/Runtime/Host/KernelArgs.h"

#include <benchmark/benchmark.h>

#include <cstring>
#include <stdexcept>

using namespace normc;

namespace {

constexpr int64_t kRows = 256, kD = 4096;
constexpr int64_t kBytes = (2 * kRows * kD + kD) * 2; // x, y, gamma

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
      *parsed.spec, specialize ? std::optional<int64_t>(kD) : std::nullopt, {},
      errors);
  if (!kernel)
    throw std::runtime_error(errors);
  cpu::CpuModule module = cpu::CpuModule::compile(kernel->source);
  return {*kernel, module.kernel(kernel->info.name)};
}

/// A buffer for every argument of `kernels` at [kRows, kD], from their
/// signature (inputs all ones), and for the partial sums they exchange.
struct Buffers {
  std::vector<std::vector<unsigned char>> storage;
  KernelArgs args;

  Buffers(const std::vector<KernelLaunchInfo> &kernels, int64_t partialRows) {
    args.rows = kRows;
    args.d = kD;
    for (const Argument &a : signatureOf(kernels)) {
      std::vector<double> ones(size_t(a.elements(kRows, kD)), 1.0);
      storage.push_back(host::encode(a.elementType, ones.data(), ones.size()));
      args.buffers[a.name] = storage.back().data();
    }
    for (const KernelLaunchInfo &info : kernels)
      for (const KernelParam &p : info.params)
        if (p.kind == KernelParam::Kind::Partials) {
          storage.emplace_back(size_t(partialRows * kD * elementBytes(p)));
          args.buffers[p.name] = storage.back().data();
        }
  }
};

void runKernel(benchmark::State &state, bool specialize) {
  Prepared p = prepare(specialize);
  Buffers buffers({p.kernel.info}, 0);
  PackedArgs packed(p.kernel.info, buffers.args);
  cpu::LaunchOptions options;
  options.hostThreads = 1;
  for (auto _ : state)
    cpu::launch(p.entry, {unsigned(p.kernel.info.gridFor(kRows)), 1, 1},
                {unsigned(p.kernel.info.blockSize), 1, 1},
                p.kernel.info.dynamicSharedBytes(kD), packed.data(), options);
  state.SetBytesProcessed(state.iterations() * kBytes);
  state.counters["block"] = double(p.kernel.info.blockSize);
  state.counters["bytes_per_element"] =
      double(rowBytesPerElement({p.kernel.info}));
}

/// The backward's two kernels (dx and the parameter sums, then their
/// finish), as the runtime launches them.
void BM_LlamaRmsNormBackward_FixedD(benchmark::State &state) {
  dsl::SpecParseResult parsed =
      dsl::parseSpecFile(NORMC_SPECS_DIR "/llama_rmsnorm.toml");
  std::string errors;
  std::unique_ptr<SpecCompilation> compilation =
      SpecCompilation::create(*parsed.spec, kD, errors, Program::gradient());
  std::optional<EmittedModule> module;
  if (compilation)
    module = compilation->emitModule({}, errors);
  if (!module)
    throw std::runtime_error(errors);
  cpu::CpuModule cpuModule = cpu::CpuModule::compile(module->source);
  std::vector<KernelLaunch> plan = planLaunches(module->kernels, kRows, kD);
  Buffers buffers(module->kernels, partialRows(module->kernels, plan));
  std::vector<std::unique_ptr<PackedArgs>> packed =
      packLaunches(module->kernels, plan, buffers.args);
  cpu::LaunchOptions options;
  options.hostThreads = 1;
  for (auto _ : state)
    for (size_t i = 0; i < plan.size(); ++i) {
      const KernelLaunchInfo &info = module->kernels[plan[i].kernel];
      cpu::launch(cpuModule.kernel(info.name), {unsigned(plan[i].grid), 1, 1},
                  {unsigned(info.blockSize), 1, 1}, info.dynamicSharedBytes(kD),
                  packed[i]->data(), options);
    }
  int64_t perElement = rowBytesPerElement(module->kernels);
  state.SetBytesProcessed(state.iterations() * perElement * kRows * kD);
  state.counters["bytes_per_element"] = double(perElement);
  state.counters["kernels"] = double(module->kernels.size());
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
BENCHMARK(BM_LlamaRmsNormBackward_FixedD)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HostCopySameBytes)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
