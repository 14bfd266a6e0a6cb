//===- CpuCuda.h - The CUDA device environment for host compilers ---------===//
//
// Force-included (`c++ -include CpuCuda.h -DNORMC_CPU`) in front of emitted
// CUDA source so that the very same source compiles as host C++ and runs on
// the CPU executor (CpuDevice.h): every CUDA thread a fiber, barriers and
// warp collectives real rendezvous. This header supplies what device code
// expects from nvcc: qualifiers, the built-in index variables, barriers,
// warp shuffles, math intrinsics, atomics, the toolkit's __half and
// __nv_bfloat16 types (their host implementations, round-to-nearest-even),
// and the NORMC_* portability macros of the emitter.
//
// All calls into the executor go through the Hooks table (CpuAbi.h) that
// the executor binds after loading the compiled object, so the object has
// no link-time dependency on normc. Include it in one translation unit per
// shared object only: it defines the binding entry point.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_CPUCUDA_H
#define NORMC_RUNTIME_CPUCUDA_H

#ifndef NORMC_CPU
#error "CpuCuda.h compiles CUDA source for the CPU executor; define NORMC_CPU"
#endif

#include "CpuAbi.h"

#include <cmath>
#include <cstring>
#include <type_traits>

// Execution-space qualifiers mean nothing on the CPU. They are defined
// before the toolkit headers, which keep definitions they find; those
// headers supply __forceinline__, __align__ and friends for GCC themselves.
#define __global__
#define __device__
#define __host__
#define __launch_bounds__(...)
#define __constant__
// A block's shared memory is an arena of the executor: a plain __shared__
// would silently become per-thread memory, so it is a compile error.
#define __shared__                                                             \
  _Pragma("GCC error \"__shared__ needs NORMC_STATIC_SHARED on the CPU\"")
#define __managed__                                                            \
  _Pragma("GCC error \"__managed__ does not work on the CPU executor\"")

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#if !defined(__forceinline__) || !defined(__align__)
#error "the CUDA toolkit headers did not define __forceinline__/__align__"
#endif

namespace normc {
namespace cpu {
namespace detail {

/// The executor's entry points; set by normc_cpu_bind before any launch.
static const Hooks *gHooks = nullptr;

inline const ThreadCtx &current() { return *gHooks->current(); }
inline uint3 toUint3(Dim3 d) { return make_uint3(d.x, d.y, d.z); }
inline dim3 toDim3(Dim3 d) { return dim3(d.x, d.y, d.z); }

template <class T> unsigned long long toBits(T value) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                "warp collectives exchange trivially copyable values of at "
                "most 8 bytes");
  unsigned long long bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

template <class T> T fromBits(unsigned long long bits) {
  T value;
  std::memcpy(static_cast<void *>(&value), &bits, sizeof(T));
  return value;
}

/// The warp intrinsics, bound to the source position they were called from
/// (the macros below build one per call).
struct WarpSite {
  Site site;

  template <class T>
  T exchange(WarpOp op, unsigned mask, T var, int arg, int width) const {
    return fromBits<T>(gHooks->warpOp(op, mask, toBits(var), arg, width, site));
  }
  template <class T>
  T shfl(unsigned mask, T var, int srcLane, int width = warpSizeValue) const {
    return exchange(WarpOp::ShflIdx, mask, var, srcLane, width);
  }
  template <class T>
  T shflUp(unsigned mask, T var, unsigned delta,
           int width = warpSizeValue) const {
    return exchange(WarpOp::ShflUp, mask, var, static_cast<int>(delta), width);
  }
  template <class T>
  T shflDown(unsigned mask, T var, unsigned delta,
             int width = warpSizeValue) const {
    return exchange(WarpOp::ShflDown, mask, var, static_cast<int>(delta),
                    width);
  }
  template <class T>
  T shflXor(unsigned mask, T var, int laneMask,
            int width = warpSizeValue) const {
    return exchange(WarpOp::ShflXor, mask, var, laneMask, width);
  }
  unsigned ballot(unsigned mask, int predicate) const {
    return static_cast<unsigned>(gHooks->warpOp(
        WarpOp::Ballot, mask, predicate != 0, 0, warpSizeValue, site));
  }
  int any(unsigned mask, int predicate) const {
    return ballot(mask, predicate) != 0;
  }
  int all(unsigned mask, int predicate) const {
    return ballot(mask, predicate) == mask;
  }
  void sync(unsigned mask = 0xffffffffu) const {
    gHooks->warpOp(WarpOp::Sync, mask, 0, 0, warpSizeValue, site);
  }

  static constexpr int warpSizeValue = static_cast<int>(kWarpSize);
};

template <class T>
const T *clusterShared(const T *address, unsigned rank, Site site) {
  return static_cast<const T *>(gHooks->clusterShared(address, rank, site));
}

template <class T> T *staticShared(std::size_t count, Site site) {
  return static_cast<T *>(
      gHooks->staticShared(count * sizeof(T), alignof(T), site));
}

} // namespace detail
} // namespace cpu
} // namespace normc

/// Called by the executor right after loading the object (again for every
/// module that loads it; the table never changes, so a rebind only reads);
/// returns the ABI version this object was compiled against.
extern "C" __attribute__((visibility("default"))) int
normc_cpu_bind(const normc::cpu::Hooks *hooks) {
  if (normc::cpu::detail::gHooks != hooks)
    normc::cpu::detail::gHooks = hooks;
  return normc::cpu::kAbiVersion;
}

//===----------------------------------------------------------------------===//
// Built-in variables, barriers and warp intrinsics
//===----------------------------------------------------------------------===//

#define NORMC_CPU_SITE (::normc::cpu::Site{__FILE__, __LINE__})
#define NORMC_CPU_WARP (::normc::cpu::detail::WarpSite{NORMC_CPU_SITE})

#define threadIdx                                                              \
  (::normc::cpu::detail::toUint3(::normc::cpu::detail::current().threadIdx))
#define blockIdx                                                               \
  (::normc::cpu::detail::toUint3(::normc::cpu::detail::current().blockIdx))
#define blockDim                                                               \
  (::normc::cpu::detail::toDim3(::normc::cpu::detail::current().blockDim))
#define gridDim                                                                \
  (::normc::cpu::detail::toDim3(::normc::cpu::detail::current().gridDim))
static constexpr int warpSize = static_cast<int>(::normc::cpu::kWarpSize);

#define __syncthreads()                                                        \
  (::normc::cpu::detail::gHooks->syncThreads(NORMC_CPU_SITE))
#define __syncwarp(...) (NORMC_CPU_WARP.sync(__VA_ARGS__))
#define __shfl_sync(...) (NORMC_CPU_WARP.shfl(__VA_ARGS__))
#define __shfl_up_sync(...) (NORMC_CPU_WARP.shflUp(__VA_ARGS__))
#define __shfl_down_sync(...) (NORMC_CPU_WARP.shflDown(__VA_ARGS__))
#define __shfl_xor_sync(...) (NORMC_CPU_WARP.shflXor(__VA_ARGS__))
#define __ballot_sync(...) (NORMC_CPU_WARP.ballot(__VA_ARGS__))
#define __any_sync(...) (NORMC_CPU_WARP.any(__VA_ARGS__))
#define __all_sync(...) (NORMC_CPU_WARP.all(__VA_ARGS__))
#define __trap() (::normc::cpu::detail::gHooks->trap(NORMC_CPU_SITE))
/// The support library's cluster primitives (the GPU's are inline PTX).
#define normc_cluster_rank() (::normc::cpu::detail::gHooks->clusterRank())
#define normc_cluster_sync()                                                   \
  (::normc::cpu::detail::gHooks->clusterSync(NORMC_CPU_SITE))
#define normc_cluster_shared(address, rank)                                    \
  (::normc::cpu::detail::clusterShared((address), (rank), NORMC_CPU_SITE))
/// The support library's asynchronous copies and their wait (cp.async and
/// cp.async.wait_all on the GPU).
#define NORMC_ASYNC_COPY(dst, src, bytes)                                      \
  (::normc::cpu::detail::gHooks->asyncCopy((dst), (src), (bytes),              \
                                           NORMC_CPU_SITE))
#define normc_async_wait()                                                     \
  (::normc::cpu::detail::gHooks->asyncWait(NORMC_CPU_SITE))
/// The support library's vector loads and stores check their addresses
/// here, as the GPU's memory system does.
#define NORMC_VECTOR_ACCESS(address, bytes)                                    \
  (reinterpret_cast<unsigned long long>(address) % (bytes) == 0                \
       ? (void)0                                                               \
       : ::normc::cpu::detail::gHooks->misaligned((address), (bytes),          \
                                                  NORMC_CPU_SITE))

//===----------------------------------------------------------------------===//
// The emitter's portability layer
//===----------------------------------------------------------------------===//

/// A kernel is a plain function, run once per CUDA thread (fiber) by the
/// normc_cpu_entry_<name> trampoline of the emitted file, which calls it as
/// NORMC_CPU_KERNEL(name). Pasting a reserved prefix (an argument of ## is
/// not macro-expanded) makes every kernel name safe here, even one that the
/// C library or this header declares or defines as a macro: gamma, exit,
/// NULL, std.
/// (Both paste directly: passed on to another macro, the name would be
/// expanded first.)
#define NORMC_CPU_KERNEL(name) normc_cpu_kernel_##name
#define NORMC_KERNEL(threads, name) static void normc_cpu_kernel_##name
/// The cluster's size comes from the launch (LaunchOptions::clusterSize),
/// as with the launch attribute on a GPU.
#define NORMC_CLUSTER_KERNEL(threads, blocks, name)                            \
  static void normc_cpu_kernel_##name
/// All threads of a block run the same declarations in the same order, so
/// the executor hands each of them the same block-wide allocation.
#define NORMC_STATIC_SHARED(T, name, count)                                    \
  T *name = ::normc::cpu::detail::staticShared<T>((count), NORMC_CPU_SITE)
#define NORMC_DYNAMIC_SHARED(name)                                             \
  unsigned char *name = static_cast<unsigned char *>(                          \
      ::normc::cpu::detail::gHooks->dynamicShared())

//===----------------------------------------------------------------------===//
// Device functions without a host version in the toolkit headers
//===----------------------------------------------------------------------===//

inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __frcp_rn(float a) { return 1.0f / a; }
inline float __fsqrt_rn(float a) { return std::sqrt(a); }
inline double __dsqrt_rn(double a) { return std::sqrt(a); }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __expf(float a) { return std::exp(a); }
inline float __logf(float a) { return std::log(a); }
inline float __saturatef(float a) {
  return a >= 1.0f ? 1.0f : (a > 0.0f ? a : 0.0f); // NaN -> 0 as on the GPU
}
inline float __int_as_float(int a) {
  return ::normc::cpu::detail::fromBits<float>(static_cast<unsigned>(a));
}
inline float __uint_as_float(unsigned a) {
  return ::normc::cpu::detail::fromBits<float>(a);
}
inline int __float_as_int(float a) {
  return static_cast<int>(::normc::cpu::detail::toBits(a));
}
inline unsigned __float_as_uint(float a) {
  return static_cast<unsigned>(::normc::cpu::detail::toBits(a));
}
inline long long __double_as_longlong(double a) {
  return static_cast<long long>(::normc::cpu::detail::toBits(a));
}
template <class T> inline T __ldg(const T *p) { return *p; }

#define NORMC_CPU_MINMAX(T)                                                    \
  inline T min(T a, T b) { return b < a ? b : a; }                             \
  inline T max(T a, T b) { return a < b ? b : a; }
NORMC_CPU_MINMAX(int)
NORMC_CPU_MINMAX(unsigned)
NORMC_CPU_MINMAX(long long)
NORMC_CPU_MINMAX(unsigned long long)
#undef NORMC_CPU_MINMAX
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }

inline __half hsqrt(__half a) {
  return __float2half_rn(std::sqrt(__half2float(a)));
}
inline __half hrsqrt(__half a) {
  return __float2half_rn(1.0f / std::sqrt(__half2float(a)));
}
inline __nv_bfloat16 hsqrt(__nv_bfloat16 a) {
  return __float2bfloat16_rn(std::sqrt(__bfloat162float(a)));
}
inline __nv_bfloat16 hrsqrt(__nv_bfloat16 a) {
  return __float2bfloat16_rn(1.0f / std::sqrt(__bfloat162float(a)));
}

//===----------------------------------------------------------------------===//
// Atomics and fences: blocks run on several host threads at once
//===----------------------------------------------------------------------===//

template <class T> inline T normcCpuAtomicAdd(T *address, T value) {
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  T desired = old + value;
  while (!__atomic_compare_exchange(address, &old, &desired, false,
                                    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
    desired = old + value;
  return old;
}
inline float atomicAdd(float *address, float value) {
  return normcCpuAtomicAdd(address, value);
}
inline double atomicAdd(double *address, double value) {
  return normcCpuAtomicAdd(address, value);
}
inline int atomicAdd(int *address, int value) {
  return __atomic_fetch_add(address, value, __ATOMIC_SEQ_CST);
}
inline unsigned atomicAdd(unsigned *address, unsigned value) {
  return __atomic_fetch_add(address, value, __ATOMIC_SEQ_CST);
}
inline unsigned long long atomicAdd(unsigned long long *address,
                                    unsigned long long value) {
  return __atomic_fetch_add(address, value, __ATOMIC_SEQ_CST);
}
template <class T> inline T normcCpuAtomicMax(T *address, T value) {
  T old = __atomic_load_n(address, __ATOMIC_RELAXED);
  while (old < value &&
         !__atomic_compare_exchange_n(address, &old, value, false,
                                      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
  }
  return old;
}
inline unsigned atomicMax(unsigned *address, unsigned value) {
  return normcCpuAtomicMax(address, value);
}
inline unsigned long long atomicMax(unsigned long long *address,
                                    unsigned long long value) {
  return normcCpuAtomicMax(address, value);
}
inline unsigned short atomicCAS(unsigned short *address, unsigned short compare,
                                unsigned short value) {
  __atomic_compare_exchange_n(address, &compare, value, false, __ATOMIC_SEQ_CST,
                              __ATOMIC_SEQ_CST);
  return compare;
}
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

// The C library's lower-case object-like macros would expand inside a
// kernel parameter's name (parameters are lower case, ReservedNames.h);
// kernels need none. tests/unit/names checks that none is left.
#undef math_errhandling

#endif // NORMC_RUNTIME_CPUCUDA_H
