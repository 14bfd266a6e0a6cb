//===- ClusterTest.cpp - Thread-block clusters on the CPU device ----------===//
//
// The blocks of a cluster meet at the cluster barrier and read each other's
// shared memory (normc_cluster_rank / _sync / _shared, the support
// library's names). A missing cluster barrier must fail a test the way a
// missing __syncthreads does: a block reads another's slot before it is
// written (NaN), or after that block has ended (a launch error).
//
//===----------------------------------------------------------------------===//

#include "CpuTestUtil.h"

#include <cmath>

using namespace normc::cpu;
using namespace normc::cpu::test;

namespace {

/// `k(float *out)`: every block of a cluster of `blocks` puts its rank + 1
/// (+ 10 * its cluster) into its slot; every thread sums the cluster's
/// slots, in rank order, into out[block * threads + thread]. `before` and
/// `after` are the code around the reads (normally the cluster barriers).
std::string clusterSum(const std::string &before, const std::string &after) {
  return R"(
NORMC_KERNEL(64, k)(float *__restrict__ out) {
  NORMC_STATIC_SHARED(float, slot, 1);
  const unsigned blocks = 4;
  unsigned rank = normc_cluster_rank();
  if (threadIdx.x == 0)
    slot[0] = rank + 1 + 10.0f * (blockIdx.x / blocks);
)" + before +
         R"(
  float sum = 0;
  for (unsigned r = 0; r < blocks; ++r)
    sum += *normc_cluster_shared(slot, r);
)" + after +
         R"(
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_k(void **args) {
  NORMC_CPU_KERNEL(k)(*reinterpret_cast<float *const *>(args[0]));
}
#endif
)";
}

constexpr unsigned kThreads = 64, kClusters = 3, kBlocks = 4;

/// Runs the kernel; the error of the launch, or "" with `out` filled.
std::string run(const std::string &source, LaneOrder order,
                std::vector<float> &out, unsigned clusterSize = kBlocks,
                unsigned grid = kClusters * kBlocks) {
  CpuKernel kernel = compileKernel(source, "k");
  out.assign(kThreads * grid, -1.0f);
  float *outPtr = out.data();
  void *args[] = {&outPtr};
  LaunchOptions options = withOrder(order, 2);
  options.clusterSize = clusterSize;
  return launchError(
      [&] { launch(kernel, Dim3{grid}, Dim3{kThreads}, 0, args, options); });
}

TEST(ClusterTest, BlocksReadEachOthersSharedMemory) {
  for (LaneOrder order : kAllOrders) {
    std::vector<float> out;
    ASSERT_EQ(
        run(clusterSum("  normc_cluster_sync();", "  normc_cluster_sync();"),
            order, out),
        "")
        << orderName(order);
    for (unsigned block = 0; block < kClusters * kBlocks; ++block) {
      float cluster = static_cast<float>(block / kBlocks);
      for (unsigned t = 0; t < kThreads; ++t)
        ASSERT_EQ(out[block * kThreads + t], 10 + 40 * cluster)
            << orderName(order) << " block " << block << " thread " << t;
    }
  }
}

TEST(ClusterTest, AMissingBarrierBeforeTheReadsReadsNaN) {
  // Under every order some block reads a slot not yet written (0xFF: NaN)
  // or, having been ended, gone.
  for (LaneOrder order : kAllOrders) {
    std::vector<float> out;
    std::string error =
        run(clusterSum("", "  normc_cluster_sync();"), order, out);
    bool nan = false;
    for (float v : out)
      nan |= std::isnan(v);
    EXPECT_TRUE(nan || !error.empty()) << orderName(order);
  }
}

TEST(ClusterTest, AMissingBarrierAfterTheReadsIsCaught) {
  // Without the last barrier a block ends while the others still read its
  // slot: a launch error (or NaN, the memory being gone) in every order but
  // one where the last block to read is the last one to run.
  int caught = 0;
  for (LaneOrder order : kAllOrders) {
    std::vector<float> out;
    std::string error =
        run(clusterSum("  normc_cluster_sync();", ""), order, out);
    bool nan = false;
    for (float v : out)
      nan |= std::isnan(v);
    if (!error.empty()) {
      EXPECT_TRUE(contains(error, "which has exited")) << error;
      EXPECT_TRUE(contains(error, "a missing cluster barrier")) << error;
    }
    caught += nan || !error.empty();
  }
  EXPECT_GE(caught, 3);
}

TEST(ClusterTest, ABlockThatSkipsTheBarrierDeadlocksItsCluster) {
  std::vector<float> out;
  std::string error = run(clusterSum("  if (rank != 2) normc_cluster_sync();",
                                     "  normc_cluster_sync();"),
                          LaneOrder::Forward, out);
  EXPECT_TRUE(contains(error, "kernel 'k', block (")) << error;
  EXPECT_TRUE(contains(error, "deadlock")) << error;
  EXPECT_TRUE(contains(error, "cluster barrier")) << error;
}

TEST(ClusterTest, TheGridIsAWholeNumberOfClusters) {
  std::vector<float> out;
  std::string error =
      run(clusterSum("  normc_cluster_sync();", "  normc_cluster_sync();"),
          LaneOrder::Forward, out, kBlocks, 6);
  EXPECT_TRUE(contains(error, "multiple of the cluster size 4")) << error;
  error = run(clusterSum("", ""), LaneOrder::Forward, out, 16, 16);
  EXPECT_TRUE(contains(error, "a cluster has 1 to 8 blocks")) << error;
}

TEST(ClusterTest, RanksOutsideTheClusterFailTheLaunch) {
  std::vector<float> out;
  // A cluster of 2 while the kernel reads 4 slots.
  std::string error =
      run(clusterSum("  normc_cluster_sync();", "  normc_cluster_sync();"),
          LaneOrder::Forward, out, 2, 4);
  EXPECT_TRUE(contains(error, "shared memory of block 2 of a cluster of 2"))
      << error;
}

} // namespace
