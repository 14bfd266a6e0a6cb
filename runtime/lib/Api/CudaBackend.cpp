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
#include "normc/Runtime/Cache/DiskCache.h"
#include "normc/Runtime/Cuda/CudaDriver.h"
#include "normc/Runtime/Nvrtc/Nvrtc.h"

#include <memory>
#include <mutex>

using namespace normc;
using namespace normc::api;

namespace {

/// What the compile of a cached CUBIN passed, for its key.
std::string cubinOptions() {
  std::string text = "cubin";
  for (const std::string &option : nvrtc::fixedOptions())
    text += " " + option;
  return text;
}
class CudaKernel : public LoadedKernel {
public:
  CudaKernel(std::vector<KernelLaunchInfo> infos, cuda::Module module,
             std::vector<cuda::Function> functions)
      : LoadedKernel(std::move(infos)), module(std::move(module)),
        functions(std::move(functions)) {}
  cuda::Module module;
  std::vector<cuda::Function> functions; // in launch order
  /// The partial sums the kernels exchange, grown on demand. Launches are
  /// ordered on one stream; calls on several streams at once serialize on
  /// the lock but would share it, so they need a Norm each.
  mutable std::mutex workspaceLock;
  mutable std::vector<cuda::Buffer> workspace;
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
  int smVersion() const override {
    return device.ccMajor * 10 + device.ccMinor;
  }

  std::shared_ptr<LoadedKernel> load(const Candidate &candidate,
                                     const std::string &canonicalSpec,
                                     int64_t d) override {
    checkSharedMemory(candidate, d, device.sharedPerBlockOptin, "the GPU");
    std::string cubin = binary(candidate, canonicalSpec, d);
    try {
      cuda::Module module = cuda::Module::load(ordinal, cubin);
      std::vector<cuda::Function> functions;
      for (const KernelLaunchInfo &info : candidate.kernels) {
        functions.push_back(module.function(info.name));
        if (size_t shared = info.dynamicSharedBytes(d); shared > 48 * 1024)
          functions.back().setMaxDynamicShared(shared);
      }
      return std::make_shared<CudaKernel>(candidate.kernels, std::move(module),
                                          std::move(functions));
    } catch (const cuda::CudaError &error) {
      throw Error(error.what());
    }
  }

  void compile(const Candidate &candidate, const std::string &canonicalSpec,
               int64_t d) override {
    try {
      binary(candidate, canonicalSpec, d);
    } catch (const Error &) {
      // load() compiles again and reports it.
    }
  }

  /// The candidate's CUBIN, from the disk cache or NVRTC (which it then
  /// caches).
  std::string binary(const Candidate &candidate,
                     const std::string &canonicalSpec, int64_t d) const {
    const std::string &name = candidate.kernels.front().name;
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
                          .add("options", cubinOptions())
                          .hex();
    // A kernel that spills registers is never kept: the entry of one that
    // did records how much (a CUBIN starts with ELF's magic, never so).
    const std::string spilled = "spilled ";
    auto refuse = [&](const std::string &bytes) {
      return Error("'" + name + "' (" + candidate.schedule.str() + ") spills " +
                   bytes + " bytes of registers on " + options.arch +
                   "; normc keeps no kernel that spills");
    };
    if (std::optional<std::string> hit = binaries.get(key)) {
      if (hit->rfind(spilled, 0) == 0)
        throw refuse(hit->substr(spilled.size()));
      return std::move(*hit);
    }
    nvrtc::Result result =
        nvrtc::compile(candidate.source, name + ".cu", options);
    if (!result.ok)
      throw Error("NVRTC failed for '" + name + "': " + result.error + "\n" +
                  result.log);
    if (long bytes = nvrtc::spillBytes(result.log)) {
      binaries.put(key, spilled + std::to_string(bytes));
      throw refuse(std::to_string(bytes));
    }
    binaries.put(key, result.binary);
    return std::move(result.binary);
  }

  void launch(const LoadedKernel &loaded, const KernelArgs &args,
              void *stream) override {
    const auto &kernel = static_cast<const CudaKernel &>(loaded);
    const std::vector<KernelLaunchInfo> &infos = kernel.kernels();
    try {
      // Blocks stride over row groups: a few waves of blocks suffice. The
      // cap is the device's, so the partial sums' order is fixed per GPU.
      std::vector<KernelLaunch> plan =
          planLaunches(infos, args.rows, args.d, int64_t(device.smCount) * 32);
      KernelArgs all = args;
      std::lock_guard<std::mutex> lock(kernel.workspaceLock);
      auto partials = partialsBuffers(infos, plan, args.d);
      for (size_t i = 0; i < partials.size(); ++i) {
        size_t bytes = std::max<size_t>(partials[i].second, 16);
        if (kernel.workspace.size() <= i) {
          kernel.workspace.emplace_back(ordinal, bytes);
        } else if (kernel.workspace[i].size() < bytes) {
          cuda::synchronize(ordinal); // earlier launches may still read it
          kernel.workspace[i] = cuda::Buffer(ordinal, bytes);
        }
        all.buffers[partials[i].first] = kernel.workspace[i].get();
      }
      // Every argument checked before the first kernel writes anything.
      std::vector<std::unique_ptr<PackedArgs>> packed =
          packLaunches(infos, plan, all);
      for (size_t i = 0; i < plan.size(); ++i) {
        const KernelLaunchInfo &info = infos[plan[i].kernel];
        cuda::launch(kernel.functions[plan[i].kernel],
                     static_cast<unsigned>(plan[i].grid),
                     static_cast<unsigned>(info.blockSize),
                     info.dynamicSharedBytes(args.d), packed[i]->data(),
                     stream);
      }
    } catch (const std::exception &error) {
      throw Error(error.what());
    }
  }

  double measure(const LoadedKernel &kernel, int64_t rows, int64_t d) override {
    try {
      std::vector<cuda::Buffer> storage;
      KernelArgs args;
      args.rows = rows;
      args.d = d;
      for (const Argument &argument : kernel.signature()) {
        storage.emplace_back(ordinal, argument.bytes(rows, d));
        storage.back().fill(0);
        args.buffers[argument.name] = storage.back().get();
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
