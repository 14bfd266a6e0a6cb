//===- CpuBackend.cpp - The CPU device as a Backend -----------------------===//
#include "Backend.h"
#include "normc/Abi/Signature.h"
#include "normc/Runtime/Cpu/CpuDevice.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <memory>

#include <unistd.h>

using namespace normc;
using namespace normc::api;

std::vector<std::pair<std::string, size_t>>
api::partialsBuffers(const std::vector<KernelLaunchInfo> &kernels,
                     const std::vector<KernelLaunch> &plan, int64_t d) {
  std::vector<std::pair<std::string, size_t>> out;
  int64_t rows = partialRows(kernels, plan);
  for (const KernelLaunchInfo &info : kernels)
    for (const KernelParam &p : info.params)
      if (p.kind == KernelParam::Kind::Partials && p.written)
        out.push_back({p.name, size_t(rows * d * elementBytes(p))});
  return out;
}

namespace {
class CpuKernel : public LoadedKernel {
public:
  CpuKernel(std::vector<KernelLaunchInfo> infos,
            std::vector<cpu::CpuKernel> entries)
      : LoadedKernel(std::move(infos)), entries(std::move(entries)) {}
  std::vector<cpu::CpuKernel> entries; // in launch order
};

class CpuBackend : public Backend {
public:
  CpuBackend(const std::string &cacheDir, const std::string &headerDir) {
    options.cacheDir = cacheDir;
    options.headerDir = headerDir;
  }

  DeviceKind kind() const override { return DeviceKind::Cpu; }
  std::string deviceKey() const override { return "cpu"; }
  std::string deviceName() const override { return "cpu"; }

  std::shared_ptr<LoadedKernel> load(const Candidate &candidate,
                                     const std::string &, int64_t d) override {
    checkSharedMemory(candidate, d, kMaxSharedBytes, "the CPU device");
    try {
      cpu::CpuModule module =
          cpu::CpuModule::compile(candidate.source, options);
      std::vector<cpu::CpuKernel> entries;
      for (const KernelLaunchInfo &info : candidate.kernels)
        entries.push_back(module.kernel(info.name));
      return std::make_shared<CpuKernel>(candidate.kernels, std::move(entries));
    } catch (const std::exception &error) {
      throw Error(std::string("CPU device: ") + error.what());
    }
  }

  void compile(const Candidate &candidate, const std::string &,
               int64_t) override {
    try {
      cpu::CpuModule::compile(candidate.source, options); // into the cache
    } catch (const std::exception &) {
      // load() compiles again and reports it.
    }
  }

  void launch(const LoadedKernel &loaded, const KernelArgs &args,
              void *) override {
    const auto &kernel = static_cast<const CpuKernel &>(loaded);
    const std::vector<KernelLaunchInfo> &infos = kernel.kernels();
    try {
      std::vector<KernelLaunch> plan = planLaunches(infos, args.rows, args.d);
      KernelArgs all = args;
      std::vector<std::vector<unsigned char>> workspace;
      // Filled with 0xff bytes, a NaN in every float type: a partial sum
      // that no kernel wrote cannot pass for zero.
      for (auto &[name, bytes] : partialsBuffers(infos, plan, args.d)) {
        workspace.emplace_back(bytes, 0xff);
        all.buffers[name] = workspace.back().data();
      }
      // Every argument checked before the first kernel writes anything.
      std::vector<std::unique_ptr<PackedArgs>> packed =
          packLaunches(infos, plan, all);
      for (size_t i = 0; i < plan.size(); ++i) {
        const KernelLaunchInfo &info = infos[plan[i].kernel];
        cpu::LaunchOptions options;
        options.clusterSize = static_cast<unsigned>(info.clusterSize);
        cpu::launch(kernel.entries[plan[i].kernel],
                    {static_cast<unsigned>(plan[i].grid), 1, 1},
                    {static_cast<unsigned>(info.blockSize), 1, 1},
                    info.dynamicSharedBytes(args.d), packed[i]->data(),
                    options);
      }
    } catch (const std::exception &error) {
      throw Error(std::string("CPU device: ") + error.what());
    }
  }

  double measure(const LoadedKernel &kernel, int64_t rows, int64_t d) override {
    // Scratch buffers this machine can hold, checked before any is made.
    uint64_t needed = 0;
    for (const Argument &argument : kernel.signature())
      needed += std::min<uint64_t>(uint64_t(argument.bytes(rows, d)),
                                   UINT64_MAX / 16);
    uint64_t memory =
        uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
    if (needed > memory / 2)
      throw Error("timing " + std::to_string(rows) +
                  " rows of d = " + std::to_string(d) +
                  " on the CPU device needs " + std::to_string(needed >> 20) +
                  " MiB of buffers; this "
                  "machine has " +
                  std::to_string(memory >> 20) + " MiB");
    std::vector<std::vector<unsigned char>> storage;
    KernelArgs args;
    args.rows = rows;
    args.d = d;
    for (const Argument &argument : kernel.signature()) {
      storage.emplace_back(argument.bytes(rows, d) + 16, 0);
      args.buffers[argument.name] = storage.back().data();
    }
    launch(kernel, args, nullptr); // warm-up
    std::vector<double> times;
    for (int i = 0; i < 5; ++i) {
      auto start = std::chrono::steady_clock::now();
      launch(kernel, args, nullptr);
      times.push_back(std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count());
    }
    std::nth_element(times.begin(), times.begin() + 2, times.end());
    return times[2];
  }

private:
  cpu::CompileOptions options;
};
} // namespace

std::unique_ptr<Backend> api::makeCpuBackend(const std::string &cacheDir,
                                             const std::string &headerDir) {
  return std::make_unique<CpuBackend>(cacheDir, headerDir);
}
