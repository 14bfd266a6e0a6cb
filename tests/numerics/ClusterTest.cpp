//===- ClusterTest.cpp - The cluster strategy keeps the promise -----------===//
//
// Kernels whose rows are spread over the blocks of a thread-block cluster
// run on the CPU device (the blocks of a cluster together, their totals
// exchanged through distributed shared memory) against the float64
// reference: every shipped spec over ragged and empty slices, every row
// storage and lane order, an fp8 output (a maximum across the cluster),
// the heuristic's sm_90 kernels for the widest rows; and kernels with a
// cluster barrier deleted must fail.
//
//===----------------------------------------------------------------------===//
#include "NumericsUtil.h"

#include <gtest/gtest.h>

using namespace normc;
using namespace normc::test;

namespace {

struct ClusterCase {
  int64_t d, blocks, threads;
  RowStorage storage;
  std::string str() const {
    return "cluster_size=" + std::to_string(blocks) +
           ",threads_per_row=" + std::to_string(threads) +
           ",row_storage=" + std::string(toString(storage)) +
           " d=" + std::to_string(d);
  }
};

// Slices that end mid-vector, blocks whose slice lies past d, a slice of
// one vector a thread, several per thread, and every row storage.
const ClusterCase kCases[] = {{1000, 8, 32, RowStorage::Registers},
                              {4097, 2, 32, RowStorage::Shared},
                              {4097, 4, 64, RowStorage::Global},
                              {20000, 4, 128, RowStorage::Registers},
                              {12289, 2, 256, RowStorage::Shared}};

RunOptions clusterRun(const ClusterCase &c, cpu::LaneOrder order) {
  RunOptions options;
  options.compile = kernelCompileOptions();
  // vector_width left to the heuristic: 128-bit accesses.
  options.schedule.strategy = Strategy::Cluster;
  options.schedule.clusterSize = c.blocks;
  options.schedule.threadsPerRow = c.threads;
  options.schedule.rowStorage = c.storage;
  options.launch.laneOrder = order;
  options.launch.seed = 5;
  return options;
}

class ClusterSuite : public ::testing::TestWithParam<const char *> {};

TEST_P(ClusterSuite, KeepsTheBound) {
  dsl::Spec spec = loadShippedSpec(GetParam());
  spec.saveStats.value = true;
  int orderIndex = 0;
  for (const ClusterCase &c : kCases)
    for (int64_t rows : {1, 3, 257}) {
      cpu::LaneOrder order = kLaneOrders[orderIndex++ % 4];
      CaseData data = makeCase(spec, rows, c.d, 31 + rows);
      RunOptions options = clusterRun(c, order);
      Grade g = runAndGrade(spec, data, options);
      EXPECT_LE(g.worst(), 1.0)
          << c.str() << " rows " << rows << ": " << g.str();
    }
}

INSTANTIATE_TEST_SUITE_P(Shipped, ClusterSuite,
                         ::testing::ValuesIn(kShippedSpecs),
                         [](const auto &info) {
                           return std::string(info.param);
                         });

TEST(Cluster, Fp8RowScalesAreTheClustersMaximum) {
  dsl::Spec spec = loadShippedSpec("llama_rmsnorm");
  spec.output.value = dsl::DType::F8E4M3;
  spec.quantizeScale.value = dsl::QuantizeScale::Row;
  for (const ClusterCase &c : kCases) {
    CaseData data = makeCase(spec, 3, c.d, 7);
    RunOptions options = clusterRun(c, cpu::LaneOrder::Random);
    Grade g = runAndGrade(spec, data, options);
    EXPECT_LE(g.worst(), 1.0) << c.str() << ": " << g.str();
    EXPECT_EQ(g.fp8Wrong, 0u);
  }
}

// The kernels users get on sm_90 for d = 262144: bf16 rows in shared
// memory over 4 blocks, f32 rows over 8.
TEST(Cluster, TheWidestRowsOfTheSm90Heuristic) {
  dsl::Spec bf16 = loadShippedSpec("llama_rmsnorm");
  dsl::Spec f32 = loadShippedSpec("layernorm");
  f32.input.value = f32.params.value = f32.output.value = dsl::DType::F32;
  for (dsl::Spec *spec : {&bf16, &f32}) {
    CaseData data = makeCase(*spec, 2, 262144, 3);
    RunOptions options;
    options.compile = kernelCompileOptions();
    options.schedule = ScheduleOptions(ScheduleRequest(), 90);
    options.launch.laneOrder = cpu::LaneOrder::Random;
    Grade g = runAndGrade(*spec, data, options);
    EXPECT_LE(g.worst(), 1.0) << spec->name.value << ": " << g.str();
  }
}

/// Deletes the `n`-th cluster barrier of the kernel (0: the one between
/// the writes of the block totals and their reads; 1: the one after).
template <int N> std::string dropClusterBarrier(const std::string &source) {
  std::string marker = "normc_cluster_sync();\n";
  size_t at = source.find(marker);
  for (int i = 0; i < N && at != std::string::npos; ++i)
    at = source.find(marker, at + marker.size());
  EXPECT_NE(at, std::string::npos);
  if (at == std::string::npos)
    return source;
  return source.substr(0, at) + source.substr(at + marker.size());
}

double worstWith(std::string (*mutate)(const std::string &)) {
  dsl::Spec spec = loadShippedSpec("layernorm");
  const ClusterCase c{4097, 4, 64, RowStorage::Registers};
  RunOptions options = clusterRun(c, cpu::LaneOrder::Forward);
  options.mutateSource = mutate;
  return worstOverLaneOrders(spec, makeCase(spec, 5, c.d, 11), options);
}

TEST(ClusterMutation, TheUnchangedKernelPasses) {
  EXPECT_LE(worstWith([](const std::string &s) { return s; }), 1.0);
}

TEST(ClusterMutation, ReadingTheTotalsBeforeTheBarrierFails) {
  EXPECT_GT(worstWith(dropClusterBarrier<0>), 1.0);
}

TEST(ClusterMutation, EndingOrRewritingBeforeTheOthersReadFails) {
  EXPECT_GT(worstWith(dropClusterBarrier<1>), 1.0);
}

} // namespace
