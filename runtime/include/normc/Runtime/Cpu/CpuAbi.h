//===- CpuAbi.h - Interface between CPU-compiled kernels and the executor -===//
//
// Emitted CUDA source compiled for the CPU (see CpuCuda.h) is a shared
// object that links against nothing of normc. Everything it needs from the
// executor (the current CUDA thread, barriers, warp collectives, shared
// memory) goes through the table of function pointers declared here, which
// the executor hands to the object right after loading it
// (normc_cpu_bind). This header is plain C++17 with no CUDA macros so that
// both sides can include it.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_CPUABI_H
#define NORMC_RUNTIME_CPUABI_H

#include <cstddef>

namespace normc {
namespace cpu {

/// Bumped whenever Hooks or ThreadCtx change layout or meaning.
constexpr int kAbiVersion = 4;

/// Lanes per warp, as on every NVIDIA GPU.
constexpr unsigned kWarpSize = 32;

/// A CUDA dim3/uint3 without the toolkit headers.
struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

/// What a CUDA thread can ask about itself.
struct ThreadCtx {
  Dim3 threadIdx, blockIdx, blockDim, gridDim;
};

/// Source position of a barrier or collective, for diagnostics and for
/// telling two different __syncthreads() apart.
struct Site {
  const char *file;
  int line;
};

/// The warp-level collectives. All of them are rendezvous of the lanes in
/// their mask; Ballot also implements __any_sync and __all_sync.
enum class WarpOp : int { ShflIdx, ShflUp, ShflDown, ShflXor, Ballot, Sync };

/// Entry points of the executor, called from kernel code. Each may throw
/// (to unwind a kernel whose launch failed); kernels must not catch.
struct Hooks {
  const ThreadCtx *(*current)();
  void (*syncThreads)(Site site);
  /// Exchanges `value` (a type of at most 8 bytes, zero-extended) among
  /// the lanes of `mask`; `arg` is the source lane, delta or lane mask.
  unsigned long long (*warpOp)(WarpOp op, unsigned mask,
                               unsigned long long value, int arg, int width,
                               Site site);
  void *(*staticShared)(std::size_t bytes, std::size_t align, Site site);
  void *(*dynamicShared)();
  void (*trap)(Site site);
  /// A vector access of `bytes` bytes at `address`, which is not a multiple
  /// of `bytes`: a CUDA GPU faults ("misaligned address"), so the launch
  /// fails here too.
  void (*misaligned)(const void *address, std::size_t bytes, Site site);
  /// Thread-block clusters: the block's rank in its cluster, the barrier of
  /// every thread of every block of the cluster, and the address of the
  /// shared-memory variable at `address` in the block of rank `rank`
  /// (distributed shared memory).
  unsigned (*clusterRank)();
  void (*clusterSync)(Site site);
  void *(*clusterShared)(const void *address, unsigned rank, Site site);
  /// Asynchronous copies into shared memory (cp.async): `bytes` bytes from
  /// `src` to `dst`, made only when the thread waits for its copies
  /// (asyncWait); until then `dst` keeps what it held.
  void (*asyncCopy)(void *dst, const void *src, std::size_t bytes, Site site);
  void (*asyncWait)(Site site);
};

} // namespace cpu
} // namespace normc

#endif // NORMC_RUNTIME_CPUABI_H
