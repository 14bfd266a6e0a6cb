//===- DeadlockTest.cpp - Barriers and collectives that not all reach -----===//
//
// Such kernels hang or misbehave on a GPU; on the CPU device the launch
// must fail with an error that names the block and the missing threads.
//
//===----------------------------------------------------------------------===//

#include "CpuTestUtil.h"

using namespace normc::cpu;
using namespace normc::cpu::test;

namespace {

/// A kernel `k(float *out)` with `body`, and its trampoline.
std::string kernelSource(const std::string &body) {
  return R"(
NORMC_KERNEL(256, k)(float *__restrict__ out) {
  unsigned tid = threadIdx.x, lane = tid % 32;
  (void)lane;
  float v = static_cast<float>(tid);
)" + body +
         R"(
  out[blockIdx.x * blockDim.x + tid] = v;
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_k(void **args) {
  NORMC_CPU_KERNEL(k)(*reinterpret_cast<float *const *>(args[0]));
}
#endif
)";
}

std::string launchK(const std::string &body, unsigned threads,
                    unsigned blocks = 1, LaneOrder order = LaneOrder::Forward) {
  CpuKernel kernel = compileKernel(kernelSource(body), "k");
  std::vector<float> out(threads * blocks);
  float *outPtr = out.data();
  void *args[] = {&outPtr};
  return launchError([&] {
    launch(kernel, Dim3{blocks}, Dim3{threads}, 0, args, withOrder(order, 2));
  });
}

TEST(DeadlockTest, ShuffleReachedByHalfTheLanes) {
  for (LaneOrder order : kAllOrders) {
    std::string error =
        launchK("  if (lane < 16) v = __shfl_xor_sync(0xffffffffu, v, 1);\n",
                64, 3, order);
    EXPECT_TRUE(contains(error, "kernel 'k', block (0,0,0)"));
    EXPECT_TRUE(contains(error, "__shfl_xor_sync"));
    EXPECT_TRUE(contains(error, "reached by lanes 0-15 but not by lanes "
                                "16-31: threads 16-31 exited"));
  }
}

TEST(DeadlockTest, ShuffleMissingLanesWaitAtABarrier) {
  std::string error =
      launchK("  if (lane < 16) v = __shfl_xor_sync(0xffffffffu, v, 1);\n"
              "  __syncthreads();\n",
              64);
  EXPECT_TRUE(contains(error, "deadlock"));
  EXPECT_TRUE(contains(error, "not by lanes 16-31: threads 16-31 wait at "
                              "__syncthreads()"));
  EXPECT_TRUE(contains(error, "__syncthreads() at "));
}

TEST(DeadlockTest, BarrierInDivergentBranch) {
  std::string error = launchK("  if (tid < 32) __syncthreads();\n", 128, 2);
  EXPECT_TRUE(contains(error, "kernel 'k', block (0,0,0)"));
  EXPECT_TRUE(contains(error, "was reached by threads 0-31 but not by "
                              "threads 32-127: threads 32-127 exited"));
}

TEST(DeadlockTest, BarriersAtDifferentPlaces) {
  std::string error = launchK("  if (tid < 64) { __syncthreads(); v += 1; }\n"
                              "  else { __syncthreads(); v += 2; }\n",
                              128);
  EXPECT_TRUE(contains(error, "a barrier in divergent code"));
  EXPECT_TRUE(contains(error, "wait at __syncthreads() at "));
}

TEST(DeadlockTest, ShuffleMasksThatOverlap) {
  std::string error =
      launchK("  if (lane < 8) v = __shfl_xor_sync(0x0000ffffu, v, 1);\n"
              "  else v = __shfl_xor_sync(0xffffffffu, v, 1);\n",
              32);
  EXPECT_TRUE(contains(error, "thread 8 (warp 0, lane 8) called "
                              "__shfl_xor_sync"));
  EXPECT_TRUE(contains(error, "with mask 0xffffffff while lanes 0-7 of its "
                              "warp wait at __shfl_xor_sync"));
  EXPECT_TRUE(contains(error, "with mask 0x0000ffff"));
}

TEST(DeadlockTest, DifferentCollectivesInOneWarp) {
  std::string error =
      launchK("  if (lane < 16) v = __shfl_xor_sync(0xffffffffu, v, 1);\n"
              "  else v = __shfl_down_sync(0xffffffffu, v, 1);\n",
              32);
  EXPECT_TRUE(contains(error, "called __shfl_down_sync"));
  EXPECT_TRUE(contains(error, "wait at __shfl_xor_sync"));
}

TEST(DeadlockTest, MaskWithoutTheCallingLane) {
  std::string error =
      launchK("  v = __shfl_xor_sync(0xfffffffeu, v, 1);\n", 32);
  EXPECT_TRUE(contains(error, "thread 0 (warp 0, lane 0) called "
                              "__shfl_xor_sync"));
  EXPECT_TRUE(contains(error, "leaves out its own lane 0"));
}

TEST(DeadlockTest, MaskNamingLanesBeyondTheBlock) {
  std::string error =
      launchK("  v = __shfl_xor_sync(0xffffffffu, v, 1);\n", 48);
  EXPECT_TRUE(contains(error,
                       "names lanes 16-31 that do not exist in a block of "
                       "48 threads"));
}

TEST(DeadlockTest, ShuffleWidthNotAPowerOfTwo) {
  std::string error =
      launchK("  v = __shfl_down_sync(0xffffffffu, v, 1, 12);\n", 32);
  EXPECT_TRUE(contains(error, "width 12"));
}

TEST(DeadlockTest, MisalignedVectorAccessFailsTheLaunch) {
  // What a GPU faults on: the support library checks each vector access.
  std::string error =
      launchK("  if (tid == 5) NORMC_VECTOR_ACCESS(out + 1, 16);\n"
              "  NORMC_VECTOR_ACCESS(out + 4 * (tid / 4), 16);\n",
              64);
  EXPECT_TRUE(contains(error, "thread 5 (warp 0, lane 5) made a misaligned "
                              "16-byte vector access at "));
  EXPECT_TRUE(contains(error, "(a CUDA GPU faults: misaligned address)"));
}

TEST(DeadlockTest, TrapFailsTheLaunch) {
  std::string error =
      launchK("  if (blockIdx.x == 1 && tid == 7) __trap();\n", 64, 3);
  EXPECT_TRUE(contains(error, "kernel 'k', block (1,0,0): thread 7 (warp 0, "
                              "lane 7) called __trap()"));
}

TEST(DeadlockTest, BadConfigurationIsRejected) {
  CpuKernel kernel = compileKernel(kernelSource(""), "k");
  void *args[] = {nullptr};
  EXPECT_TRUE(contains(
      launchError([&] { launch(kernel, Dim3{1}, Dim3{2048}, 0, args); }),
      "at most 1024 threads"));
  EXPECT_TRUE(
      contains(launchError([&] { launch(kernel, Dim3{0}, Dim3{32}, 0, args); }),
               "at least 1"));
}

TEST(DeadlockTest, AFailedLaunchLeavesTheExecutorUsable) {
  CpuKernel bad =
      compileKernel(kernelSource("  if (tid < 32) __syncthreads();\n"), "k");
  CpuKernel good = compileKernel(kernelSource("  __syncthreads();\n"), "k");
  std::vector<float> out(64 * 4);
  float *outPtr = out.data();
  void *args[] = {&outPtr};
  for (int i = 0; i < 3; ++i) {
    EXPECT_THROW(launch(bad, Dim3{4}, Dim3{64}, 0, args), CpuLaunchError);
    launch(good, Dim3{4}, Dim3{64}, 0, args, withOrder(LaneOrder::Random, 2));
    for (unsigned i = 0; i < out.size(); ++i)
      ASSERT_EQ(out[i], static_cast<float>(i % 64));
  }
}

} // namespace
