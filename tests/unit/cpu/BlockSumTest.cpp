//===- BlockSumTest.cpp - Barriers, shuffles and lane orders --------------===//
//
// A two-level block sum (warp shuffles, then shared memory) is exact under
// every lane order; the same kernel without the __syncthreads between the
// levels must come out wrong under at least one order.
//
//===----------------------------------------------------------------------===//

#include "CpuTestUtil.h"

#include <cmath>
#include <thread>
#include <vector>

using namespace normc::cpu;
using namespace normc::cpu::test;

namespace {

/// Sums threadIdx.x + 1 + blockIdx.x over each block (exact in float).
std::string blockSumSource(bool withBarrier) {
  return std::string(R"(
NORMC_KERNEL(1024, block_sum)(float *__restrict__ out) {
  NORMC_STATIC_SHARED(float, partial, 32);
  unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  float v = static_cast<float>(tid + 1 + blockIdx.x);
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  if (lane == 0)
    partial[warp] = v;
)") + (withBarrier ? "  __syncthreads();\n" : "") +
         R"(
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? partial[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_xor_sync(0xffffffffu, v, offset);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_block_sum(void **args) {
  NORMC_CPU_KERNEL(block_sum)(*reinterpret_cast<float *const *>(args[0]));
}
#endif
)";
}

float expectedSum(unsigned threads, unsigned block) {
  return static_cast<float>(threads) * (threads + 1) / 2 +
         static_cast<float>(threads) * block;
}

std::vector<float> runBlockSum(const CpuKernel &kernel, unsigned threads,
                               unsigned blocks, const LaunchOptions &options) {
  std::vector<float> out(blocks, -1.0f);
  float *outPtr = out.data();
  void *args[] = {&outPtr};
  launch(kernel, Dim3{blocks}, Dim3{threads}, 0, args, options);
  return out;
}

TEST(BlockSumTest, ExactUnderEveryOrderAndBlockSize) {
  CpuKernel kernel = compileKernel(blockSumSource(true), "block_sum");
  for (unsigned threads : {32u, 64u, 96u, 256u, 1024u}) {
    for (LaneOrder order : kAllOrders) {
      std::vector<float> out =
          runBlockSum(kernel, threads, 5, withOrder(order, 2));
      for (unsigned b = 0; b < out.size(); ++b)
        EXPECT_EQ(out[b], expectedSum(threads, b))
            << threads << " threads, block " << b << ", " << orderName(order)
            << " order";
    }
  }
}

TEST(BlockSumTest, MissingBarrierIsWrongUnderSomeOrder) {
  CpuKernel kernel = compileKernel(blockSumSource(false), "block_sum");
  unsigned wrongOrders = 0;
  for (LaneOrder order : kAllOrders) {
    std::vector<float> out = runBlockSum(kernel, 256, 3, withOrder(order));
    for (unsigned b = 0; b < out.size(); ++b)
      if (!(out[b] == expectedSum(256, b))) {
        ++wrongOrders;
        break;
      }
  }
  EXPECT_GE(wrongOrders, 1u);
}

TEST(BlockSumTest, ForwardOrderExposesTheMissingBarrier) {
  // Under forward order warp 0 reads the partials before the other warps
  // wrote them: it sees the 0xFF poison, i.e. NaN.
  CpuKernel kernel = compileKernel(blockSumSource(false), "block_sum");
  std::vector<float> out =
      runBlockSum(kernel, 256, 1, withOrder(LaneOrder::Forward));
  EXPECT_TRUE(std::isnan(out[0])) << out[0];
}

TEST(BlockSumTest, SeveralHostThreadsLaunchAtOnce) {
  CpuKernel kernel = compileKernel(blockSumSource(true), "block_sum");
  std::vector<std::vector<float>> results(4);
  std::vector<std::thread> launchers;
  for (unsigned i = 0; i < results.size(); ++i)
    launchers.emplace_back([&, i] {
      results[i] =
          runBlockSum(kernel, 128, 40, withOrder(kAllOrders[i % 3], 1 + i % 2));
    });
  for (std::thread &t : launchers)
    t.join();
  for (const std::vector<float> &out : results)
    for (unsigned b = 0; b < out.size(); ++b)
      EXPECT_EQ(out[b], expectedSum(128, b));
}

TEST(BlockSumTest, RandomOrderIsReproducible) {
  CpuKernel kernel = compileKernel(blockSumSource(false), "block_sum");
  LaunchOptions options = withOrder(LaneOrder::Random, 2);
  std::vector<float> first = runBlockSum(kernel, 256, 16, options);
  std::vector<float> second = runBlockSum(kernel, 256, 16, options);
  for (unsigned b = 0; b < first.size(); ++b)
    EXPECT_EQ(std::isnan(first[b]), std::isnan(second[b])) << "block " << b;
}

} // namespace
