//===- BuiltinsTest.cpp - Index variables, atomics and math intrinsics ----===//

#include "CpuTestUtil.h"

#include <cmath>
#include <vector>

using namespace normc::cpu;
using namespace normc::cpu::test;

namespace {

/// Every thread stores its coordinates at its global linear index.
const char *kIndices = R"(
NORMC_KERNEL(64, indices)(unsigned *__restrict__ out) {
  unsigned threadsPerBlock = blockDim.x * blockDim.y * blockDim.z;
  unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned *o = out + 6 * (block * threadsPerBlock + thread);
  uint3 t = threadIdx;
  dim3 b = blockIdx;
  o[0] = t.x; o[1] = t.y; o[2] = t.z;
  o[3] = b.x; o[4] = b.y; o[5] = b.z;
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_indices(void **args) {
  NORMC_CPU_KERNEL(indices)(*reinterpret_cast<unsigned *const *>(args[0]));
}
#endif
)";

TEST(BuiltinsTest, ThreeDimensionalGridsAndBlocks) {
  CpuKernel kernel = compileKernel(kIndices, "indices");
  Dim3 grid{3, 2, 2}, block{4, 2, 8};
  std::vector<unsigned> out(6 * 12 * 64, ~0u);
  unsigned *outPtr = out.data();
  void *args[] = {&outPtr};
  launch(kernel, grid, block, 0, args, withOrder(LaneOrder::Random, 2));
  unsigned i = 0;
  for (unsigned bz = 0; bz < 2; ++bz)
    for (unsigned by = 0; by < 2; ++by)
      for (unsigned bx = 0; bx < 3; ++bx)
        for (unsigned tz = 0; tz < 8; ++tz)
          for (unsigned ty = 0; ty < 2; ++ty)
            for (unsigned tx = 0; tx < 4; ++tx, i += 6) {
              std::vector<unsigned> got(out.begin() + i, out.begin() + i + 6);
              EXPECT_EQ(got, (std::vector<unsigned>{tx, ty, tz, bx, by, bz}));
            }
}

/// Atomics across blocks (several host threads) and the math intrinsics.
const char *kAtomicsAndMath = R"(
NORMC_KERNEL(128, atomics)(float *__restrict__ sum, unsigned *__restrict__ count,
                           float *__restrict__ math) {
  atomicAdd(sum, 1.0f);
  atomicAdd(count, 2u);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    math[0] = rsqrtf(4.0f);
    math[1] = static_cast<float>(rsqrt(16.0));
    math[2] = __fdividef(1.0f, 8.0f);
    math[3] = fmaxf(-1.0f, 2.0f) + max(3, 5) + min(2.0f, -2.0f);
    math[4] = __half2float(hsqrt(__float2half_rn(9.0f)));
    math[5] = __bfloat162float(hrsqrt(__float2bfloat16_rn(0.25f)));
    math[6] = __saturatef(1.5f) + __saturatef(-1.0f);
    math[7] = __int_as_float(__float_as_int(0.75f));
  }
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_atomics(void **args) {
  NORMC_CPU_KERNEL(atomics)(*reinterpret_cast<float *const *>(args[0]),
          *reinterpret_cast<unsigned *const *>(args[1]),
          *reinterpret_cast<float *const *>(args[2]));
}
#endif
)";

TEST(BuiltinsTest, AtomicsAndMath) {
  CpuKernel kernel = compileKernel(kAtomicsAndMath, "atomics");
  float sum = 0.0f;
  unsigned count = 0;
  std::vector<float> math(8, -1.0f);
  float *sumPtr = &sum, *mathPtr = math.data();
  unsigned *countPtr = &count;
  void *args[] = {&sumPtr, &countPtr, &mathPtr};
  launch(kernel, Dim3{64}, Dim3{128}, 0, args,
         withOrder(LaneOrder::Forward, 2));
  EXPECT_EQ(sum, 64.0f * 128);
  EXPECT_EQ(count, 2u * 64 * 128);
  EXPECT_EQ(math, (std::vector<float>{0.5f, 0.25f, 0.125f, 5.0f - 2.0f + 2.0f,
                                      3.0f, 2.0f, 1.0f, 0.75f}));
}

/// The vector-load idiom of CUDA code: a uint4 stored into an array of
/// bf16 and read back element by element (type punning that g++ -O2 breaks
/// unless told otherwise).
const char *kTypePunning = R"(
NORMC_KERNEL(32, pun)(const __nv_bfloat16 *__restrict__ in, float *__restrict__ out) {
  alignas(16) __nv_bfloat16 e[8];
  *reinterpret_cast<uint4 *>(e) = reinterpret_cast<const uint4 *>(in)[threadIdx.x];
  float sum = 0.0f;
  for (int i = 0; i < 8; ++i)
    sum += __bfloat162float(e[i]);
  out[threadIdx.x] = sum;
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_pun(void **args) {
  NORMC_CPU_KERNEL(pun)(*reinterpret_cast<const __nv_bfloat16 *const *>(args[0]),
      *reinterpret_cast<float *const *>(args[1]));
}
#endif
)";

TEST(BuiltinsTest, TypePunningWorksAsOnTheGpu) {
  CpuKernel kernel = compileKernel(kTypePunning, "pun");
  alignas(16) std::uint16_t in[32 * 8];
  for (unsigned i = 0; i < 32 * 8; ++i)
    in[i] = bf16FromFloat(static_cast<float>(i / 8));
  std::vector<float> out(32);
  const std::uint16_t *inPtr = in;
  float *outPtr = out.data();
  void *args[] = {&inPtr, &outPtr};
  launch(kernel, Dim3{1}, Dim3{32}, 0, args);
  for (unsigned t = 0; t < 32; ++t)
    EXPECT_EQ(out[t], 8.0f * t);
}

/// a * b + c, with a = b = 1 + 2^-12 and c = -(1 + 2^-11): a * b rounds to
/// 1 + 2^-11 (the 2^-24 is half an ulp: a tie to even), so the sum is 0;
/// fused, it is 2^-24.
const char *kMultiplyAdd = R"(
NORMC_KERNEL(1, multiply_add)(const float *__restrict__ in,
                              float *__restrict__ out) {
  out[0] = in[0] * in[1] + in[2];
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_multiply_add(void **args) {
  NORMC_CPU_KERNEL(multiply_add)(
      *reinterpret_cast<const float *const *>(args[0]),
      *reinterpret_cast<float *const *>(args[1]));
}
#endif
)";

// The GPU compiles kernels with --fmad=false; the CPU device's compile line
// keeps any multiply and add apart too, whatever flags are added to it (a
// compiler told to contract and to use the host's fma would fuse them).
TEST(BuiltinsTest, MultiplyAndAddAreNeverContracted) {
  std::vector<std::vector<std::string>> flags = {{}};
  if (__builtin_cpu_supports("fma"))
    flags.push_back({"-mfma", "-ffp-contract=fast", "-ffast-math"});
  for (const std::vector<std::string> &extra : flags) {
    CpuKernel kernel = compileKernel(kMultiplyAdd, "multiply_add", extra);
    const float a = 1.0f + std::ldexp(1.0f, -12);
    float in[3] = {a, a, -(1.0f + std::ldexp(1.0f, -11))};
    float out = -1.0f;
    const float *inPtr = in;
    float *outPtr = &out;
    void *args[] = {&inPtr, &outPtr};
    launch(kernel, Dim3{1}, Dim3{1}, 0, args);
    EXPECT_EQ(out, 0.0f) << extra.size() << " extra flags";
  }
}

} // namespace
