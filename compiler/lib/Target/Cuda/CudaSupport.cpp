//===- CudaSupport.cpp - The support code every emitted file starts with --===//
//
// This is a fixed device library, like a header: the kernels themselves are
// generated op by op from the IR in CudaEmitter.cpp.
//
//===----------------------------------------------------------------------===//
#include "CudaSupport.h"

static const char kSupport[] = R"cuda(
#ifndef NORMC_CPU
// On the GPU (NVRTC). With NORMC_CPU, the CPU device's header defines these.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
// At least one block per SM: a thread may use min(255, 65536 / threads)
// registers, the budget normc::keptRegisterBudget plans kept rows with
// (without it NVRTC's ptxas caps 1024-thread blocks at 32 and spills).
#define NORMC_KERNEL(threads, name)                                           \
  extern "C" __global__ void __launch_bounds__(threads, 1) name
#define NORMC_STATIC_SHARED(T, name, count) __shared__ __align__(16) T name[count]
#define NORMC_DYNAMIC_SHARED(name) extern __shared__ __align__(16) unsigned char name[]
// The GPU faults on a misaligned vector access by itself.
#define NORMC_VECTOR_ACCESS(address, bytes) ((void)0)
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// Asynchronous copies into shared memory (cp.async; pieces of 16 bytes go
// around L1) and the wait for all of this thread's copies. Before sm_80
// normc_async_load copies at once and there is nothing to wait for.
template <int Bytes>
__device__ __forceinline__ void normc_cp_async(void *dst, const void *src) {
  unsigned shared = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  const char *global = static_cast<const char *>(src);
  if (Bytes < 16) { // 4 or 8 (an immediate valid in either branch)
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;"
                 :: "r"(shared), "l"(global), "n"(Bytes < 16 ? Bytes : 16)
                 : "memory");
  } else {
#pragma unroll
    for (int k = 0; k < Bytes / 16; ++k)
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"
                   :: "r"(shared + 16 * k), "l"(global + 16 * k) : "memory");
  }
}
#define NORMC_ASYNC_COPY(dst, src, bytes) normc_cp_async<bytes>((dst), (src))
__device__ __forceinline__ void normc_async_wait() {
  asm volatile("cp.async.wait_all;" ::: "memory");
}
#else
__device__ __forceinline__ void normc_async_wait() {}
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Thread-block clusters (the cluster strategy): the cluster's size is part
// of the kernel; the block's rank in its cluster; the barrier of every
// thread of the cluster (release/acquire: shared-memory writes before it
// are visible to the whole cluster after it); and the address of a
// shared-memory variable in the block of rank `rank` (distributed shared
// memory, through the generic address space).
#define NORMC_CLUSTER_KERNEL(threads, blocks, name)                           \
  extern "C" __global__ void __cluster_dims__(blocks, 1, 1)                   \
      __launch_bounds__(threads, 1) name
__device__ __forceinline__ unsigned normc_cluster_rank() {
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  return rank;
}
__device__ __forceinline__ void normc_cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
               "barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
template <typename T>
__device__ __forceinline__ const T *normc_cluster_shared(const T *address,
                                                         unsigned rank) {
  unsigned long long remote;
  asm volatile("mapa.u64 %0, %1, %2;"
               : "=l"(remote)
               : "l"(address), "r"(rank));
  return reinterpret_cast<const T *>(remote);
}
#endif
#endif

#ifndef NORMC_SUPPORT_LIBRARY
#define NORMC_SUPPORT_LIBRARY
// Conversions, rounding to nearest even: NORMC_CVT(To, value).
template <typename To> struct normc_cvt_to;
template <> struct normc_cvt_to<float> {
  static __device__ __forceinline__ float from(float v) { return v; }
  static __device__ __forceinline__ float from(double v) { return static_cast<float>(v); }
  static __device__ __forceinline__ float from(int v) { return static_cast<float>(v); }
  static __device__ __forceinline__ float from(__half v) { return __half2float(v); }
  static __device__ __forceinline__ float from(__nv_bfloat16 v) { return __bfloat162float(v); }
};
template <> struct normc_cvt_to<double> {
  static __device__ __forceinline__ double from(float v) { return v; }
  static __device__ __forceinline__ double from(double v) { return v; }
  static __device__ __forceinline__ double from(int v) { return v; }
  static __device__ __forceinline__ double from(__half v) { return __half2float(v); }
  static __device__ __forceinline__ double from(__nv_bfloat16 v) { return __bfloat162float(v); }
};
template <> struct normc_cvt_to<__half> {
  static __device__ __forceinline__ __half from(float v) { return __float2half_rn(v); }
  static __device__ __forceinline__ __half from(double v) { return __double2half(v); }
  static __device__ __forceinline__ __half from(int v) { return __float2half_rn(static_cast<float>(v)); }
  static __device__ __forceinline__ __half from(__half v) { return v; }
  static __device__ __forceinline__ __half from(__nv_bfloat16 v) { return __float2half_rn(__bfloat162float(v)); }
};
template <> struct normc_cvt_to<__nv_bfloat16> {
  static __device__ __forceinline__ __nv_bfloat16 from(float v) { return __float2bfloat16_rn(v); }
  static __device__ __forceinline__ __nv_bfloat16 from(double v) { return __double2bfloat16(v); }
  static __device__ __forceinline__ __nv_bfloat16 from(int v) { return __float2bfloat16_rn(static_cast<float>(v)); }
  static __device__ __forceinline__ __nv_bfloat16 from(__half v) { return __float2bfloat16_rn(__half2float(v)); }
  static __device__ __forceinline__ __nv_bfloat16 from(__nv_bfloat16 v) { return v; }
};
// To fp8: the toolkit's conversion, nearest even, saturating (the IR clamps
// first, so saturation never decides a value).
template <> struct normc_cvt_to<__nv_fp8_e4m3> {
  static __device__ __forceinline__ __nv_fp8_e4m3 from(float v) { return __nv_fp8_e4m3(v); }
  static __device__ __forceinline__ __nv_fp8_e4m3 from(double v) { return __nv_fp8_e4m3(v); }
  static __device__ __forceinline__ __nv_fp8_e4m3 from(__half v) { return __nv_fp8_e4m3(__half2float(v)); }
  static __device__ __forceinline__ __nv_fp8_e4m3 from(__nv_bfloat16 v) { return __nv_fp8_e4m3(__bfloat162float(v)); }
};
template <> struct normc_cvt_to<__nv_fp8_e5m2> {
  static __device__ __forceinline__ __nv_fp8_e5m2 from(float v) { return __nv_fp8_e5m2(v); }
  static __device__ __forceinline__ __nv_fp8_e5m2 from(double v) { return __nv_fp8_e5m2(v); }
  static __device__ __forceinline__ __nv_fp8_e5m2 from(__half v) { return __nv_fp8_e5m2(__half2float(v)); }
  static __device__ __forceinline__ __nv_fp8_e5m2 from(__nv_bfloat16 v) { return __nv_fp8_e5m2(__bfloat162float(v)); }
};
// To int8: the IR has already rounded to an integral value in [-128, 127]
// (math.roundeven after the clamp), which the conversion keeps exactly.
template <> struct normc_cvt_to<signed char> {
  static __device__ __forceinline__ signed char from(float v) { return static_cast<signed char>(v); }
  static __device__ __forceinline__ signed char from(double v) { return static_cast<signed char>(v); }
};
#define NORMC_CVT(To, value) normc_cvt_to<To>::from(value)

// Magnitudes and extremes in the accumulate type. normc_max is the
// combine of max reductions: the larger, a NaN `b` ignored (`a` never is
// NaN: it starts at 0). normc_minimum/maximum propagate NaN (arith's
// minimumf/maximumf), so a clamp keeps NaN.
__device__ __forceinline__ float normc_abs(float v) { return fabsf(v); }
__device__ __forceinline__ double normc_abs(double v) { return fabs(v); }
template <typename T> __device__ __forceinline__ T normc_abs(T v) {
  return NORMC_CVT(T, fabsf(NORMC_CVT(float, v)));
}
template <typename T> __device__ __forceinline__ T normc_max(T a, T b) {
  return b > a ? b : a;
}
template <typename T> __device__ __forceinline__ T normc_minimum(T a, T b) {
  return a != a || a < b ? a : b;
}
template <typename T> __device__ __forceinline__ T normc_maximum(T a, T b) {
  return a != a || a > b ? a : b;
}

// The maximum of a group's terms (sched.accumulate_group_max): slots start
// at 0 and only positive terms are combined (a NaN or -0 never is), and the
// bits of positive floats order as unsigned integers, so an atomic integer
// maximum is the float maximum whatever order threads arrive in.
__device__ __forceinline__ void normc_group_max(float *slot, float v) {
  if (v > 0.0f)
    atomicMax(reinterpret_cast<unsigned int *>(slot), __float_as_uint(v));
}
__device__ __forceinline__ void normc_group_max(double *slot, double v) {
  if (v > 0.0)
    atomicMax(reinterpret_cast<unsigned long long *>(slot),
              static_cast<unsigned long long>(__double_as_longlong(v)));
}
__device__ __forceinline__ void normc_group_max_bits(unsigned short *slot,
                                                     unsigned short bits) {
  unsigned short old = *slot;
  while (old < bits) {
    const unsigned short seen = atomicCAS(slot, old, bits);
    if (seen == old)
      break;
    old = seen;
  }
}
__device__ __forceinline__ void normc_group_max(__half *slot, __half v) {
  if (__half2float(v) > 0.0f)
    normc_group_max_bits(reinterpret_cast<unsigned short *>(slot),
                         __half_as_ushort(v));
}
__device__ __forceinline__ void normc_group_max(__nv_bfloat16 *slot,
                                                __nv_bfloat16 v) {
  if (__bfloat162float(v) > 0.0f)
    normc_group_max_bits(reinterpret_cast<unsigned short *>(slot),
                         __bfloat16_as_ushort(v));
}

// Square roots in the accumulate type; 16-bit types go through f32. The
// reciprocal square root is the correctly rounded square root, then the
// correctly rounded division (not rsqrtf, an approximation on the GPU), so
// the GPU and the CPU device compute the same bits.
__device__ __forceinline__ float normc_sqrt(float v) { return sqrtf(v); }
__device__ __forceinline__ double normc_sqrt(double v) { return sqrt(v); }
__device__ __forceinline__ float normc_rsqrt(float v) {
  return 1.0f / sqrtf(v);
}
__device__ __forceinline__ double normc_rsqrt(double v) {
  return 1.0 / sqrt(v);
}
template <typename T> __device__ __forceinline__ T normc_sqrt(T v) {
  return NORMC_CVT(T, sqrtf(NORMC_CVT(float, v)));
}
template <typename T> __device__ __forceinline__ T normc_rsqrt(T v) {
  return NORMC_CVT(T, normc_rsqrt(NORMC_CVT(float, v)));
}

// Rounding to an integral value, ties to even (an int8 output's quotient).
__device__ __forceinline__ float normc_roundeven(float v) { return rintf(v); }
__device__ __forceinline__ double normc_roundeven(double v) { return rint(v); }
template <typename T> __device__ __forceinline__ T normc_roundeven(T v) {
  return NORMC_CVT(T, rintf(NORMC_CVT(float, v)));
}

// exp in the accumulate type, from correctly rounded operations only, so
// the GPU and the CPU device compute the same bits (the toolkit's exp and
// the C library's differ in the last place). In double: x = k ln2 + r with
// ln2 split in two (k * kLn2Hi is exact), |r| <= ln2 / 2, then exp(r) by its
// Taylor polynomial to r^13 (truncation below 2^-58) and 2^k exactly by
// ldexp; within about one ulp of double. f32 and the 16-bit types round
// that once.
__device__ __forceinline__ double normc_exp(double x) {
  if (x != x)
    return x;
  if (x > 709.8)
    return x * 1e308; // infinity, by overflow
  if (x < -745.2)
    return 0.0;
  const double kLn2Hi = 6.93147180369123816490e-01;
  const double kLn2Lo = 1.90821492927058770002e-10;
  const double k = floor(x * 1.4426950408889634 + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  double p = 1.0 / 6227020800.0; // 1/13!
  const double inverseFactorials[] = {
      1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0, 1.0 / 362880.0,
      1.0 / 40320.0,     1.0 / 5040.0,     1.0 / 720.0,     1.0 / 120.0,
      1.0 / 24.0,        1.0 / 6.0,        0.5,             1.0,
      1.0};
  for (double c : inverseFactorials)
    p = p * r + c;
  return ldexp(p, static_cast<int>(k));
}
__device__ __forceinline__ float normc_exp(float x) {
  return static_cast<float>(normc_exp(static_cast<double>(x)));
}
template <typename T> __device__ __forceinline__ T normc_exp(T v) {
  return NORMC_CVT(T, normc_exp(NORMC_CVT(float, v)));
}

// tanh and erf, in the same way: double from correctly rounded operations
// (and exact ones: copysign, ldexp), rounded once for the narrower types.
// normc_expm1 is e^x - 1 without cancellation near 0: below ln2 / 2 in
// magnitude its Taylor polynomial to x^14 (truncation below 2^-56).
__device__ __forceinline__ double normc_expm1(double x) {
  if (!(x > -0.34657359027997264 && x < 0.34657359027997264))
    return normc_exp(x) - 1.0;
  double p = 1.0 / 87178291200.0; // 1/14!
  const double inverseFactorials[] = {
      1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0,
      1.0 / 3628800.0,    1.0 / 362880.0,    1.0 / 40320.0,
      1.0 / 5040.0,       1.0 / 720.0,       1.0 / 120.0,
      1.0 / 24.0,         1.0 / 6.0,         0.5,
      1.0};
  for (double c : inverseFactorials)
    p = p * x + c;
  return p * x;
}
// tanh |x| = e / (e + 2) with e = expm1(2 |x|); 1 from |x| = 22 on (tanh 22
// is 1 - 2^-62).
__device__ __forceinline__ double normc_tanh(double x) {
  if (x != x)
    return x;
  const double a = fabs(x);
  double t = 1.0;
  if (a < 22.0) {
    const double e = normc_expm1(2.0 * a);
    t = e / (e + 2.0);
  }
  return copysign(t, x);
}
// erf |x|: below 2.5 the series 2/sqrt(pi) e^(-x^2) sum x (2x^2)^n / (1 3 5
// ... (2n + 1)), whose terms are all positive (no cancellation; at most 37
// of them change the sum); from 2.5 on 1 - erfc, erfc by its continued
// fraction e^(-x^2) / sqrt(pi) / (x + (1/2) / (x + 1 / (x + (3/2) / ...)))
// to depth 30; 1 from 6 on. Within about 2^-49 of erf throughout.
__device__ __forceinline__ double normc_erf(double x) {
  if (x != x)
    return x;
  const double a = fabs(x);
  double r = 1.0;
  if (a < 2.5) {
    const double aa = a * a;
    const double twoAa = 2.0 * aa;
    double term = a, sum = a;
    for (int n = 1; n < 64; ++n) {
      term = term * twoAa / (2.0 * n + 1.0);
      const double next = sum + term;
      if (next == sum)
        break;
      sum = next;
    }
    r = 1.1283791670955126 * normc_exp(-aa) * sum;
  } else if (a < 6.0) {
    double f = a;
    for (int k = 30; k > 0; --k)
      f = a + (0.5 * k) / f;
    r = 1.0 - normc_exp(-(a * a)) / (1.7724538509055160 * f);
  }
  return copysign(r, x);
}
__device__ __forceinline__ float normc_tanh(float x) {
  return static_cast<float>(normc_tanh(static_cast<double>(x)));
}
__device__ __forceinline__ float normc_erf(float x) {
  return static_cast<float>(normc_erf(static_cast<double>(x)));
}
template <typename T> __device__ __forceinline__ T normc_tanh(T v) {
  return NORMC_CVT(T, normc_tanh(NORMC_CVT(float, v)));
}
template <typename T> __device__ __forceinline__ T normc_erf(T v) {
  return NORMC_CVT(T, normc_erf(NORMC_CVT(float, v)));
}

// Compensated summation: `carry` collects the exact rounding error of each
// addition to `sum` (Knuth's TwoSum, without branches), so that a row whose
// mean is large against its spread sums accurately. `sum` itself never sees
// the carry, so infinities and NaNs propagate as in a plain sum; a total that
// is not finite is returned as it is.
template <typename T>
__device__ __forceinline__ void normc_add_compensated(T &sum, T &carry, T v) {
  const T t = sum + v;
  const T b = t - sum;
  carry += (sum - (t - b)) + (v - b);
  sum = t;
}
template <typename T>
__device__ __forceinline__ T normc_compensated_total(T sum, T carry) {
  return sum - sum == T(0) ? sum + carry : sum;
}

// Reproducible mode's tree (docs/numerics.md): sums in a pairwise tree over
// the feature index, the lowest index bits first, padded with -0.0 (x +
// -0.0 == x exactly, so padding never changes a bit). normc_tree_vector adds
// t[0..N) pairwise into t[0]; normc_tree_lanes adds a value across groups of
// L lanes by a butterfly (xor 1, 2, ... L / 2), every lane getting the group's
// sum (a + b == b + a, so both partners hold the same bits); normc_pairwise
// adds a sequence of values pairwise as they come, a binary counter of
// Levels levels: level k holds the sum of the last complete run of 2^k.
template <int N, typename T>
__device__ __forceinline__ void normc_tree_vector(T *t) {
#pragma unroll
  for (int step = 1; step < N; step *= 2)
#pragma unroll
    for (int e = 0; e + step < N; e += 2 * step)
      t[e] = t[e] + t[e + step];
}
template <int L, typename T> __device__ __forceinline__ T normc_tree_lanes(T v) {
#pragma unroll
  for (int offset = 1; offset < L; offset *= 2)
    v = v + __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}
template <typename T, int Levels> struct normc_pairwise {
  T level[Levels];
  unsigned count = 0;
  __device__ __forceinline__ void push(T v) {
    bool carry = true;
#pragma unroll
    for (int k = 0; k < Levels; ++k)
      if (carry) {
        if ((count >> k) & 1u) {
          v = level[k] + v;
        } else {
          level[k] = v;
          carry = false;
        }
      }
    ++count;
  }
  // The runs left, the latest (and smallest) first: a padded tree's sum.
  __device__ __forceinline__ T total() const {
    T sum = NORMC_CVT(T, -0.0f);
    bool any = false;
#pragma unroll
    for (int k = 0; k < Levels; ++k)
      if ((count >> k) & 1u) {
        sum = any ? level[k] + sum : level[k];
        any = true;
      }
    return sum;
  }
};
// The tiles each of a warp's 32 lanes adds in kern.tree_total: n tiles
// padded to a power of two, shared out in runs.
__device__ __forceinline__ int normc_tiles_per_lane(int n) {
  int padded = 1;
  while (padded < n)
    padded *= 2;
  return padded > 32 ? padded / 32 : 1;
}

// Global-memory accesses of N consecutive features starting at feature c,
// to or from a chunk (a local array, or a row kept in shared memory; both
// aligned to min(N * sizeof(T), 16)). With `vec` and a whole chunk below
// `limit` they are one access of N * sizeof(T) bytes (up to 16; a wider
// chunk is two or four 16-byte accesses); otherwise element by element,
// zeros past `limit`. An access needs the alignment of its type: its size,
// or 16 bytes for the chunks of several 128-bit accesses.
template <int Bytes> struct normc_vec;
template <> struct normc_vec<1> { typedef unsigned char type; };
template <> struct normc_vec<2> { typedef unsigned short type; };
template <> struct normc_vec<4> { typedef unsigned int type; };
template <> struct normc_vec<8> { typedef uint2 type; };
template <> struct normc_vec<16> { typedef uint4 type; };
// Chunks of 16 elements of 2- or 4-byte types (with fp8 rows, whose stores
// are then 16 bytes): two or four 128-bit accesses.
struct normc_uint4x2 { uint4 v[2]; };
struct normc_uint4x4 { uint4 v[4]; };
template <> struct normc_vec<32> { typedef normc_uint4x2 type; };
template <> struct normc_vec<64> { typedef normc_uint4x4 type; };

template <typename T>
__device__ __forceinline__ bool normc_aligned(const T *p, int bytes) {
  return (reinterpret_cast<unsigned long long>(p) & (bytes - 1)) == 0;
}

template <int N, typename T>
__device__ __forceinline__ void normc_load(T *dst, const T *src, int c,
                                           int limit, bool vec) {
  typedef typename normc_vec<N * sizeof(T)>::type V;
  if (vec && c + N <= limit) {
    NORMC_VECTOR_ACCESS(src + c, alignof(V));
    NORMC_VECTOR_ACCESS(dst, alignof(V));
    *reinterpret_cast<V *>(dst) = *reinterpret_cast<const V *>(src + c);
  } else {
#pragma unroll
    for (int e = 0; e < N; ++e)
      dst[e] = c + e < limit ? src[c + e] : NORMC_CVT(T, 0.0f);
  }
}

template <int N, typename T>
__device__ __forceinline__ void normc_store(T *dst, const T *src, int c,
                                            int limit, bool vec) {
  typedef typename normc_vec<N * sizeof(T)>::type V;
  if (vec && c + N <= limit) {
    NORMC_VECTOR_ACCESS(dst + c, alignof(V));
    NORMC_VECTOR_ACCESS(src, alignof(V));
    *reinterpret_cast<V *>(dst + c) = *reinterpret_cast<const V *>(src);
  } else {
#pragma unroll
    for (int e = 0; e < N; ++e)
      if (c + e < limit)
        dst[c + e] = src[e];
  }
}

// A chunk of a row copied into shared memory asynchronously where it is
// whole and aligned (4 to 64 bytes, as the verifier of sched.async_keep
// requires) and the target has such copies; like normc_load otherwise.
template <int N, typename T>
__device__ __forceinline__ void normc_async_load(T *dst, const T *src, int c,
                                                 int limit, bool vec) {
#ifdef NORMC_ASYNC_COPY
  typedef typename normc_vec<N * sizeof(T)>::type V;
  if (vec && c + N <= limit) {
    NORMC_VECTOR_ACCESS(src + c, alignof(V));
    NORMC_VECTOR_ACCESS(dst, alignof(V));
    NORMC_ASYNC_COPY(dst, src + c, sizeof(V));
    return;
  }
#endif
  normc_load<N>(dst, src, c, limit, vec);
}
#endif // NORMC_SUPPORT_LIBRARY
)cuda";

void normc::emitCudaSupport(llvm::raw_ostream &os) { os << kSupport; }
