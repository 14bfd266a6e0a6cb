//===- CudaBackend.cpp - A CUDA GPU as a Backend --------------------------===//
//
// Kernels are compiled by NVRTC for the GPU's own architecture and cached
// on disk (launch facts + CUBIN) under a key of the canonical spec, d, the
// schedule, the normc and NVRTC versions, the architecture and the NVRTC
// options.
//
//===----------------------------------------------------------------------===//
#include "Backend.h"
#include "normc/Abi/Version.h"
#include "normc/Runtime/CudaDriver.h"
#include "normc/Runtime/DiskCache.h"
#include "normc/Runtime/Nvrtc.h"

using namespace normc;
using namespace normc::api;

namespace {
class CudaKernel : public LoadedKernel {
public:
  CudaKernel(KernelLaunchInfo info, cuda::Module module,
             cuda::Function function)
      : LoadedKernel(std::move(info)), module(std::move(module)),
        function(std::move(function)) {}
  cuda::Module module;
  cuda::Function function;
};

class CudaBackend : public Backend {
public:
  CudaBackend(int ordinal, const std::string &cacheDir)
      : ordinal(ordinal), device(cuda::deviceInfo(ordinal)),
        binaries(cacheDir, "cuda") {}

  DeviceKind kind() const override { return DeviceKind::Cuda; }
  std::string deviceKey() const override {
    return device.name + "|" + device.arch() + "|driver " +
           std::to_string(device.driverVersion) + "|nvrtc " + nvrtc::version();
  }
  std::string deviceName() const override {
    return device.name + " (" + device.arch() + ")";
  }

  std::shared_ptr<LoadedKernel> load(const Candidate &candidate,
                                     const std::string &canonicalSpec,
                                     int64_t d) override {
    size_t shared = candidate.info.dynamicSharedBytes(d);
    if (shared > device.sharedPerBlockOptin)
      throw Error("schedule " + candidate.schedule.str() + " needs " +
                  std::to_string(shared) + " bytes of shared memory at d = " +
                  std::to_string(d) + "; the GPU has " +
                  std::to_string(device.sharedPerBlockOptin));
    nvrtc::Options options;
    options.arch = device.arch();
    options.target = nvrtc::Target::Cubin;
    std::string key = cache::KeyBuilder()
                          .add("spec", canonicalSpec)
                          .add("d", std::to_string(d))
                          .add("schedule", candidate.schedule.str())
                          .add("source", candidate.source)
                          .add("normc", kVersion)
                          .add("nvrtc", nvrtc::version())
                          .add("arch", options.arch)
                          .add("options", "cubin --std=c++17")
                          .hex();
    std::string cubin;
    if (std::optional<std::string> hit = binaries.get(key)) {
      cubin = std::move(*hit);
    } else {
      nvrtc::Result result = nvrtc::compile(
          candidate.source, candidate.info.name + ".cu", options);
      if (!result.ok)
        throw Error("NVRTC failed for '" + candidate.info.name +
                    "': " + result.error + "\n" + result.log);
      cubin = std::move(result.binary);
      binaries.put(key, cubin);
    }
    try {
      cuda::Module module = cuda::Module::load(ordinal, cubin);
      cuda::Function function = module.function(candidate.info.name);
      if (shared > 48 * 1024)
        function.setMaxDynamicShared(shared);
      return std::make_shared<CudaKernel>(candidate.info, std::move(module),
                                          std::move(function));
    } catch (const cuda::CudaError &error) {
      throw Error(error.what());
    }
  }

  void launch(const LoadedKernel &loaded, const KernelArgs &args,
              void *stream) override {
    const auto &kernel = static_cast<const CudaKernel &>(loaded);
    const KernelLaunchInfo &info = kernel.info();
    try {
      PackedArgs packed(info, args);
      // Blocks stride over row groups: a few waves of blocks suffice.
      int64_t grid = std::min<int64_t>(info.gridFor(args.rows),
                                       int64_t(device.smCount) * 32);
      cuda::launch(kernel.function, static_cast<unsigned>(grid),
                   static_cast<unsigned>(info.blockSize),
                   info.dynamicSharedBytes(args.cols), packed.data(), stream);
    } catch (const std::exception &error) {
      throw Error(error.what());
    }
  }

  double measure(const LoadedKernel &kernel, int64_t rows, int64_t d) override {
    try {
      std::vector<cuda::Buffer> storage;
      KernelArgs args;
      args.rows = rows;
      args.cols = d;
      for (const KernelParam &param : kernel.info().params)
        if (param.isBuffer()) {
          storage.emplace_back(ordinal, bufferBytes(param, rows, d));
          storage.back().fill(0);
          args.buffers[param.name] = storage.back().get();
        }
      return cuda::timeMedianMs(ordinal,
                                [&] { launch(kernel, args, nullptr); });
    } catch (const cuda::CudaError &error) {
      throw Error(error.what());
    }
  }

private:
  int ordinal;
  cuda::DeviceInfo device;
  cache::DiskCache binaries;
};
} // namespace

std::unique_ptr<Backend> api::makeCudaBackend(int ordinal,
                                              const std::string &cacheDir) {
  std::string why;
  if (!cuda::available(&why))
    throw Error("no CUDA GPU can be used: " + why);
  try {
    return std::make_unique<CudaBackend>(ordinal, cacheDir);
  } catch (const cuda::CudaError &error) {
    throw Error(error.what());
  }
}
