//===- CpuDevice.h - Running emitted CUDA source on the CPU ---------------===//
//
// The CPU device executes the CUDA C++ that normc emits, unchanged, on
// machines without a GPU: CpuModule compiles the source with the host C++
// compiler (CpuCuda.h force-included, cached on disk) and loads it; launch()
// runs a kernel with every CUDA thread a fiber, blocks spread over host
// threads. Barriers and warp collectives are real rendezvous: a barrier or
// collective that some thread or lane never reaches fails the launch with a
// CpuLaunchError naming them. See docs/cpu-device.md.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_CPUDEVICE_H
#define NORMC_RUNTIME_CPUDEVICE_H

#include "normc/Runtime/Cpu/CpuAbi.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace normc {
namespace cpu {

/// A launch failed: bad configuration, a deadlocked barrier or collective,
/// inconsistent shared-memory declarations, __trap(), or a kernel that
/// threw. The message names the kernel, the block and the threads.
class CpuLaunchError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Compiling or loading kernel source failed. what() includes the
/// compiler's output, which compilerOutput() returns alone.
class CpuCompileError : public std::runtime_error {
public:
  CpuCompileError(const std::string &message, std::string compilerOutput);
  const std::string &compilerOutput() const { return output; }

private:
  std::string output;
};

/// The order in which the scheduler resumes the threads of a block, at its
/// start and after every barrier or warp collective. Order-dependent bugs
/// (a missing __syncthreads) show up under some orders only: test several.
/// RunAhead resumes in forward order, but a warp whose collective completes
/// runs before every thread already waiting, so the first warp runs as far
/// ahead as the barriers let it: a write to shared memory that a missing
/// barrier no longer holds back lands before the other warps' reads (a
/// write-after-read hazard), which the FIFO orders never show.
enum class LaneOrder { Forward, Reverse, Random, RunAhead };

struct LaunchOptions {
  LaneOrder laneOrder = LaneOrder::Forward;
  /// Seeds LaneOrder::Random; each block derives its own stream from it, so
  /// a launch is reproducible whatever the host threads do.
  std::uint64_t seed = 0;
  /// Host threads that run blocks; 0 means std::thread::hardware_concurrency.
  unsigned hostThreads = 0;
  /// Stack of each CUDA thread's fiber (a guard page below it).
  std::size_t stackBytes = 64 * 1024;
  /// Blocks of a thread-block cluster along x (1: no clusters), as the
  /// GPU's cluster launch attribute or __cluster_dims__: grid.x must be a
  /// multiple. The blocks of a cluster run together on one host thread, in
  /// `laneOrder` (forward, reversed, or shuffled), each until it waits.
  unsigned clusterSize = 1;
};

/// The trampoline an emitted file defines per kernel: `args[i]` points at
/// the value of kernel parameter i, as for cuLaunchKernel.
using KernelEntry = void (*)(void **args);

/// A kernel of a loaded module. Holding it keeps the module loaded.
struct CpuKernel {
  std::string name;
  KernelEntry entry = nullptr;
  std::shared_ptr<void> library;
};

/// Runs `kernel` over `grid` blocks of `block` threads. Blocks, threads and
/// warps are numbered as in CUDA (x fastest). Throws CpuLaunchError; safe to
/// call from several host threads at once.
void launch(const CpuKernel &kernel, Dim3 grid, Dim3 block,
            std::size_t dynamicSharedBytes, void **args,
            const LaunchOptions &options = {});

struct CompileOptions {
  /// Appended to the compiler command, e.g. {"-g",
  /// "-fsanitize=address,undefined"} (a sanitized object only loads into a
  /// process built with the same sanitizer).
  std::vector<std::string> extraFlags;
  /// The host compiler; empty means $NORMC_CXX, else `c++`.
  std::string compiler;
  /// The cache root; empty means $NORMC_CACHE_DIR, else
  /// $XDG_CACHE_HOME/normc, else ~/.cache/normc. Objects go to `<root>/cpu`.
  std::string cacheDir;
  /// Whether to parse CpuCuda.h once per compiler and flags, from a
  /// precompiled header kept in the cache (GCC only; the object is the same
  /// either way). NORMC_CPU_PCH=0 in the environment turns it off too.
  bool precompiledHeader = true;
  /// The directory of CpuCuda.h and CpuAbi.h; empty means
  /// $NORMC_CPU_HEADER_DIR, else the source tree's (an installed program,
  /// such as the Python package, passes its own copy).
  std::string headerDir;
};

/// Emitted CUDA source compiled for and loaded into this process.
class CpuModule {
public:
  /// Compiles `source` (or finds it in the cache) and loads it. Throws
  /// CpuCompileError.
  static CpuModule compile(const std::string &source,
                           const CompileOptions &options = {});

  /// The kernel `name`, i.e. the trampoline normc_cpu_entry_<name>. Throws
  /// CpuLaunchError when the module has none.
  CpuKernel kernel(const std::string &name) const;

  /// The cache entry that holds the loaded object,
  /// `<cache>/cpu/<key[0:2]>/<key>.bin` (its source, which diagnostics
  /// name, is `<key>.cpp` beside it); empty without a usable cache.
  const std::string &libraryPath() const { return path; }
  /// Whether compile() found the object in the cache instead of compiling.
  bool cacheHit() const { return hit; }

private:
  CpuModule(std::string path, std::shared_ptr<void> library, bool hit);

  std::string path;
  std::shared_ptr<void> library;
  bool hit;
};

} // namespace cpu
} // namespace normc

#endif // NORMC_RUNTIME_CPUDEVICE_H
