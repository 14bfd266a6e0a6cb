//===- RmsNormTest.cpp - A realistic kernel: bf16 RMSNorm, d = 4096 -------===//
//
// One block of 256 threads per row, 16-byte vector loads of 8 bf16, and a
// two-level reduction (5 xor shuffles, shared memory, 2 barriers): the
// shape normc emits. Checked against a double-precision reference.
//
//===----------------------------------------------------------------------===//

#include "CpuTestUtil.h"

#include <cmath>
#include <random>
#include <vector>

using namespace normc::cpu;
using namespace normc::cpu::test;

namespace {

const char *kRmsNorm = R"(
#include <cstring>
NORMC_KERNEL(256, rmsnorm)(const __nv_bfloat16 *__restrict__ x,
                           const __nv_bfloat16 *__restrict__ gamma,
                           __nv_bfloat16 *__restrict__ y, float eps) {
  constexpr int kD = 4096, kThreads = 256, kVec = 8;
  constexpr int kIters = kD / (kThreads * kVec);
  NORMC_STATIC_SHARED(float, partial, kThreads / 32);
  NORMC_STATIC_SHARED(float, rstd, 1);
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const long long row = blockIdx.x;
  const uint4 *xRow = reinterpret_cast<const uint4 *>(x + row * kD);
  const uint4 *gammaVec = reinterpret_cast<const uint4 *>(gamma);
  uint4 *yRow = reinterpret_cast<uint4 *>(y + row * kD);

  float h[kIters][kVec];
  float sumSquares = 0.0f;
  for (int i = 0; i < kIters; ++i) {
    uint4 packed = xRow[i * kThreads + tid];
    __nv_bfloat16 e[kVec];
    std::memcpy(e, &packed, sizeof packed);
    for (int j = 0; j < kVec; ++j) {
      h[i][j] = __bfloat162float(e[j]);
      sumSquares += h[i][j] * h[i][j];
    }
  }
  for (int offset = 16; offset > 0; offset /= 2)
    sumSquares += __shfl_xor_sync(0xffffffffu, sumSquares, offset);
  if (lane == 0)
    partial[warp] = sumSquares;
  __syncthreads();
  if (warp == 0) {
    float total = lane < kThreads / 32 ? partial[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2)
      total += __shfl_xor_sync(0xffffffffu, total, offset);
    if (lane == 0)
      rstd[0] = rsqrtf(total / kD + eps);
  }
  __syncthreads();
  const float r = rstd[0];
  for (int i = 0; i < kIters; ++i) {
    uint4 packedGamma = gammaVec[i * kThreads + tid];
    __nv_bfloat16 g[kVec], out[kVec];
    std::memcpy(g, &packedGamma, sizeof packedGamma);
    for (int j = 0; j < kVec; ++j)
      out[j] = __float2bfloat16_rn(h[i][j] * r * __bfloat162float(g[j]));
    uint4 packedOut;
    std::memcpy(&packedOut, out, sizeof packedOut);
    yRow[i * kThreads + tid] = packedOut;
  }
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_rmsnorm(void **args) {
  NORMC_CPU_KERNEL(rmsnorm)(*reinterpret_cast<const __nv_bfloat16 *const *>(args[0]),
          *reinterpret_cast<const __nv_bfloat16 *const *>(args[1]),
          *reinterpret_cast<__nv_bfloat16 *const *>(args[2]),
          *reinterpret_cast<const float *>(args[3]));
}
#endif
)";

TEST(RmsNormTest, MatchesAReferenceUnderEveryOrder) {
  constexpr unsigned kRows = 64, kD = 4096;
  const float eps = 1e-5f;
  std::mt19937 random(3);
  std::normal_distribution<float> normal(0.0f, 2.0f);
  std::vector<std::uint16_t> x(kRows * kD), gamma(kD), y(kRows * kD);
  for (std::uint16_t &v : x)
    v = bf16FromFloat(normal(random));
  for (std::uint16_t &v : gamma)
    v = bf16FromFloat(1.0f + normal(random) / 8);

  CpuKernel kernel = compileKernel(kRmsNorm, "rmsnorm");
  const std::uint16_t *xPtr = x.data(), *gammaPtr = gamma.data();
  std::uint16_t *yPtr = y.data();
  float epsArg = eps;
  void *args[] = {&xPtr, &gammaPtr, &yPtr, &epsArg};
  for (LaneOrder order : kAllOrders) {
    std::fill(y.begin(), y.end(), 0xffff);
    launch(kernel, Dim3{kRows}, Dim3{256}, 0, args, withOrder(order, 2));
    for (unsigned row = 0; row < kRows; ++row) {
      double sumSquares = 0;
      for (unsigned c = 0; c < kD; ++c) {
        double h = floatFromBf16(x[row * kD + c]);
        sumSquares += h * h;
      }
      double r = 1.0 / std::sqrt(sumSquares / kD + eps);
      for (unsigned c = 0; c < kD; ++c) {
        double ref =
            floatFromBf16(x[row * kD + c]) * r * floatFromBf16(gamma[c]);
        double got = floatFromBf16(y[row * kD + c]);
        ASSERT_LE(std::fabs(got - ref), 0x1p-7 * (std::fabs(ref) + 1e-3))
            << "row " << row << ", column " << c << ", " << orderName(order)
            << " order";
      }
    }
  }
}

} // namespace
