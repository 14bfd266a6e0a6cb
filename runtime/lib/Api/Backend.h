//===- Backend.h - Compile, load, launch and time on one device -----------===//
#ifndef NORMC_LIB_API_BACKEND_H
#define NORMC_LIB_API_BACKEND_H

#include "KernelSource.h"
#include "normc/Runtime/Host/KernelArgs.h"
#include "normc/normc.h"

#include <memory>
#include <string>

namespace normc::api {

/// The kernels of one candidate, compiled and loaded on a device.
class LoadedKernel {
public:
  virtual ~LoadedKernel() = default;
  /// In launch order.
  const std::vector<KernelLaunchInfo> &kernels() const { return sequence; }
  /// Their signature, read off once.
  const Signature &signature() const { return arguments; }

protected:
  explicit LoadedKernel(std::vector<KernelLaunchInfo> kernels)
      : sequence(std::move(kernels)), arguments(signatureOf(sequence)) {}

private:
  std::vector<KernelLaunchInfo> sequence;
  Signature arguments;
};

class Backend {
public:
  virtual ~Backend() = default;
  virtual DeviceKind kind() const = 0;
  /// Names the device and everything that changes its timings or binaries
  /// (GPU name, driver and NVRTC versions): the tuning database's key.
  virtual std::string deviceKey() const = 0;
  virtual std::string deviceName() const = 0;
  /// The GPU's SM version (90 for sm_90), 0 for the CPU device: which
  /// schedules it can run and the heuristic's choice.
  virtual int smVersion() const { return 0; }
  /// Throws normc::Error, e.g. when the kernel needs more shared memory
  /// than the device has for this d.
  virtual std::shared_ptr<LoadedKernel> load(const Candidate &candidate,
                                             const std::string &canonicalSpec,
                                             int64_t d) = 0;
  /// Builds the candidate's binary into the disk cache without loading it,
  /// so that a later load() is a cache hit. Safe to call from several
  /// threads at once (the tuner compiles its candidates in parallel);
  /// errors are left for load() to report.
  virtual void compile(const Candidate &candidate,
                       const std::string &canonicalSpec, int64_t d) = 0;
  /// Launches every kernel in order (planLaunches), with the partial sums
  /// they exchange in a workspace of the backend's.
  virtual void launch(const LoadedKernel &kernel, const KernelArgs &args,
                      void *stream) = 0;
  /// Median time in milliseconds of the kernels on (rows, d) scratch data.
  virtual double measure(const LoadedKernel &kernel, int64_t rows,
                         int64_t d) = 0;
};

/// Throws Error when a kernel of `candidate` needs more dynamic shared
/// memory at d than `limit` bytes (what the device allows a block).
inline void checkSharedMemory(const Candidate &candidate, int64_t d,
                              size_t limit, const std::string &device) {
  for (const KernelLaunchInfo &info : candidate.kernels) {
    size_t shared = info.dynamicSharedBytes(d);
    if (shared > limit)
      throw Error("schedule " + candidate.schedule.str() + " needs " +
                  std::to_string(shared) +
                  " bytes of shared memory at d = " + std::to_string(d) + "; " +
                  device + " has " + std::to_string(limit));
  }
}

/// Shared objects go to `<cacheDir>/cpu`; kernels include CpuCuda.h from
/// `headerDir` (cpu::CompileOptions::headerDir).
std::unique_ptr<Backend> makeCpuBackend(const std::string &cacheDir,
                                        const std::string &headerDir);
/// Throws normc::Error when no GPU can be used.
std::unique_ptr<Backend> makeCudaBackend(int ordinal,
                                         const std::string &cacheDir);

/// The partials buffers of a sequence, by name, with their bytes for
/// (rows, d) under `plan`.
std::vector<std::pair<std::string, size_t>>
partialsBuffers(const std::vector<KernelLaunchInfo> &kernels,
                const std::vector<KernelLaunch> &plan, int64_t d);

} // namespace normc::api

#endif // NORMC_LIB_API_BACKEND_H
