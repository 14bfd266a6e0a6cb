//===- WarpTest.cpp - Semantics of the warp collectives -------------------===//
//
// Every lane records what each collective gave it; the expectations follow
// CUDA's (PTX shfl's) rules for widths and out-of-range sources.
//
//===----------------------------------------------------------------------===//

#include "CpuTestUtil.h"

#include <cmath>
#include <vector>

using namespace normc::cpu;
using namespace normc::cpu::test;

namespace {

constexpr unsigned kSlots = 18;

const char *kWarpOps = R"(
NORMC_KERNEL(64, warp_ops)(double *__restrict__ out) {
  const unsigned full = 0xffffffffu;
  unsigned tid = threadIdx.x, lane = tid % 32;
  float v = 100.0f * (tid / 32) + lane;
  double *o = out + tid * 18;
  o[0] = __shfl_sync(full, v, 3);
  o[1] = __shfl_sync(full, v, lane + 35, 16);
  o[2] = __shfl_up_sync(full, v, 2);
  o[3] = __shfl_up_sync(full, v, 2, 8);
  o[4] = __shfl_down_sync(full, v, 5);
  o[5] = __shfl_down_sync(full, v, 5, 16);
  o[6] = __shfl_xor_sync(full, v, 8);
  o[7] = __shfl_xor_sync(full, v, 16, 16);
  o[8] = __shfl_xor_sync(full, static_cast<double>(v) + 0.5, 1);
  o[9] = static_cast<double>(
      __shfl_xor_sync(full, static_cast<long long>(v) << 33, 2) >> 33);
  o[10] = __half2float(__shfl_xor_sync(full, __float2half_rn(v), 4));
  o[11] = __bfloat162float(__shfl_down_sync(full, __float2bfloat16_rn(v), 1));
  o[12] = __ballot_sync(full, lane % 3 == 0);
  o[13] = __any_sync(full, lane == 7);
  o[14] = __all_sync(full, lane < 31);
  o[15] = __all_sync(full, 1);
  __syncwarp();
  // Two half-warps, each its own collective.
  o[16] = lane < 16 ? __shfl_xor_sync(0x0000ffffu, v, 1)
                    : __shfl_xor_sync(0xffff0000u, v, 1);
  // Lanes 8-15 read from lanes outside the mask: undefined, poisoned.
  o[17] = lane < 16 ? __shfl_down_sync(0x0000ffffu, v, 8) : 0.0f;
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_warp_ops(void **args) {
  NORMC_CPU_KERNEL(warp_ops)(*reinterpret_cast<double *const *>(args[0]));
}
#endif
)";

TEST(WarpTest, CollectivesFollowCuda) {
  CpuKernel kernel = compileKernel(kWarpOps, "warp_ops");
  for (LaneOrder order : kAllOrders) {
    std::vector<double> out(64 * kSlots, -1.0);
    double *outPtr = out.data();
    void *args[] = {&outPtr};
    launch(kernel, Dim3{1}, Dim3{64}, 0, args, withOrder(order));
    for (unsigned tid = 0; tid < 64; ++tid) {
      unsigned lane = tid % 32;
      double base = 100.0 * (tid / 32);
      auto from = [&](unsigned source) { return base + source; };
      const double *o = &out[tid * kSlots];
      SCOPED_TRACE("thread " + std::to_string(tid) + ", " + orderName(order) +
                   " order");
      EXPECT_EQ(o[0], from(3));
      EXPECT_EQ(o[1], from((lane & ~15u) | ((lane + 3) & 15)));
      EXPECT_EQ(o[2], from(lane >= 2 ? lane - 2 : lane));
      EXPECT_EQ(o[3], from(lane % 8 >= 2 ? lane - 2 : lane));
      EXPECT_EQ(o[4], from(lane + 5 <= 31 ? lane + 5 : lane));
      EXPECT_EQ(o[5], from(lane % 16 + 5 < 16 ? lane + 5 : lane));
      EXPECT_EQ(o[6], from(lane ^ 8));
      // Above its segment a lane gets its own value; below it, it reads.
      EXPECT_EQ(o[7], from(lane < 16 ? lane : lane - 16));
      EXPECT_EQ(o[8], from(lane ^ 1) + 0.5);
      EXPECT_EQ(o[9], from(lane ^ 2));
      EXPECT_EQ(o[10], from(lane ^ 4));
      EXPECT_EQ(o[11], from(lane == 31 ? 31 : lane + 1));
      EXPECT_EQ(o[12], static_cast<double>(0x49249249u));
      EXPECT_EQ(o[13], 1.0);
      EXPECT_EQ(o[14], 0.0);
      EXPECT_EQ(o[15], 1.0);
      EXPECT_EQ(o[16], from(lane ^ 1));
      if (lane >= 8 && lane < 16)
        EXPECT_TRUE(std::isnan(o[17])) << o[17];
      else
        EXPECT_EQ(o[17], lane < 8 ? from(lane + 8) : 0.0);
    }
  }
}

} // namespace
