//===- CpuBackend.cpp - The CPU device as a Backend -----------------------===//
#include "Backend.h"
#include "normc/Runtime/CpuDevice.h"
#include "normc/Runtime/HostData.h"

#include <algorithm>
#include <chrono>

using namespace normc;
using namespace normc::api;

size_t api::bufferBytes(const KernelParam &param, int64_t rows, int64_t d) {
  switch (param.kind) {
  case KernelParam::Kind::Rows:
    return rows * d * host::elementBytes(param.elementType);
  case KernelParam::Kind::Features:
    return d * host::elementBytes(param.elementType);
  case KernelParam::Kind::Stats:
    return rows * host::elementBytes(param.elementType);
  case KernelParam::Kind::Partials: // at most one partial row per row
    return rows * d * host::elementBytes(param.elementType);
  default:
    return 0;
  }
}

namespace {
class CpuKernel : public LoadedKernel {
public:
  CpuKernel(KernelLaunchInfo info, cpu::CpuKernel kernel)
      : LoadedKernel(std::move(info)), kernel(std::move(kernel)) {}
  cpu::CpuKernel kernel;
};

class CpuBackend : public Backend {
public:
  explicit CpuBackend(const std::string &cacheDir) {
    compile.cacheDir = cacheDir;
  }

  DeviceKind kind() const override { return DeviceKind::Cpu; }
  std::string deviceKey() const override { return "cpu"; }
  std::string deviceName() const override { return "cpu"; }

  std::shared_ptr<LoadedKernel> load(const Candidate &candidate,
                                     const std::string &, int64_t) override {
    try {
      cpu::CpuModule module =
          cpu::CpuModule::compile(candidate.source, compile);
      return std::make_shared<CpuKernel>(candidate.info,
                                         module.kernel(candidate.info.name));
    } catch (const std::exception &error) {
      throw Error(std::string("CPU device: ") + error.what());
    }
  }

  void launch(const LoadedKernel &loaded, const KernelArgs &args,
              void *) override {
    const auto &kernel = static_cast<const CpuKernel &>(loaded);
    const KernelLaunchInfo &info = kernel.info();
    try {
      PackedArgs packed(info, args);
      cpu::launch(kernel.kernel,
                  {static_cast<unsigned>(info.gridFor(args.rows)), 1, 1},
                  {static_cast<unsigned>(info.blockSize), 1, 1},
                  info.dynamicSharedBytes(args.cols), packed.data());
    } catch (const std::exception &error) {
      throw Error(std::string("CPU device: ") + error.what());
    }
  }

  double measure(const LoadedKernel &kernel, int64_t rows, int64_t d) override {
    std::vector<std::vector<unsigned char>> storage;
    KernelArgs args;
    args.rows = rows;
    args.cols = d;
    for (const KernelParam &param : kernel.info().params)
      if (param.isBuffer()) {
        storage.emplace_back(bufferBytes(param, rows, d) + 16, 0);
        args.buffers[param.name] = storage.back().data();
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
  cpu::CompileOptions compile;
};
} // namespace

std::unique_ptr<Backend> api::makeCpuBackend(const std::string &cacheDir) {
  return std::make_unique<CpuBackend>(cacheDir);
}
