//===- CostModelTest.cpp - The tuner's static ranking of schedules --------===//
#include "normc/Policy/CostModel.h"
#include "normc/Policy/Candidates.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace normc;

namespace {

/// bf16 x in, bf16 y out (RMSNorm).
const RowTraffic kBf16{2, 2, 2};

ScheduleProblem bf16Problem(int64_t d, int arch) {
  ScheduleProblem problem;
  problem.d = d;
  problem.widestBits = 16;
  problem.arch = arch;
  return problem;
}

/// The candidate of the lowest estimate.
Schedule cheapest(const ScheduleProblem &problem, int64_t rows) {
  std::vector<Schedule> all = scheduleCandidates(problem);
  return *std::min_element(
      all.begin(), all.end(), [&](const Schedule &a, const Schedule &b) {
        return estimateCost(a, kBf16, *problem.d, rows, problem.arch).seconds <
               estimateCost(b, kBf16, *problem.d, rows, problem.arch).seconds;
      });
}

} // namespace

TEST(CostModel, RowTrafficCountsEachRowsBufferOnce) {
  KernelLaunchInfo info;
  info.params = {{KernelParam::Kind::Rows, "x", "bf16", false},
                 {KernelParam::Kind::Rows, "residual", "f32", false},
                 {KernelParam::Kind::Features, "gamma", "f32", false},
                 {KernelParam::Kind::Rows, "y", "f8e4m3", true},
                 {KernelParam::Kind::RowStride, "x_stride", "", false}};
  RowTraffic traffic = rowTraffic({info, info});
  EXPECT_EQ(traffic.readBytes, 6);
  EXPECT_EQ(traffic.writtenBytes, 1);
  EXPECT_EQ(traffic.widestBytes, 4);
}

TEST(CostModel, PruningKeepsTheDefaultFirstAndTheOrder) {
  for (int64_t d : {256, 4096, 65536, 262144}) {
    std::vector<Schedule> all = scheduleCandidates(bf16Problem(d, 90));
    ASSERT_GT(all.size(), kTunedCandidates) << d;
    std::vector<Schedule> kept = pruneCandidates(all, kBf16, d, 32768, 90);
    ASSERT_EQ(kept.size(), kTunedCandidates) << d;
    EXPECT_EQ(kept.front(), all.front()) << d;
    size_t last = 0;
    for (size_t i = 1; i < kept.size(); ++i) {
      size_t at = std::find(all.begin(), all.end(), kept[i]) - all.begin();
      ASSERT_LT(at, all.size());
      EXPECT_GT(at, last) << d << ": out of order or repeated";
      last = at;
    }
  }
  // Few candidates are all kept.
  std::vector<Schedule> two(scheduleCandidates(bf16Problem(4096, 90)));
  two.resize(2);
  EXPECT_EQ(pruneCandidates(two, kBf16, 4096, 8, 90), two);
}

TEST(CostModel, ARowReReadFromGlobalMemoryMovesMoreBytes) {
  Schedule shared = Schedule::rowGroup(1, 1024, 8, RowStorage::Shared);
  Schedule global = shared;
  global.rowStorage = RowStorage::Global;
  CostEstimate once = estimateCost(shared, kBf16, 65536, 4096, 80);
  CostEstimate twice = estimateCost(global, kBf16, 65536, 4096, 80);
  EXPECT_DOUBLE_EQ(once.bytes, 4096.0 * 65536 * 4);
  EXPECT_DOUBLE_EQ(twice.bytes, 4096.0 * 65536 * 6);
  EXPECT_LT(once.seconds, twice.seconds);
  EXPECT_EQ(once.sharedBytesPerBlock, 65536 * 2);
  EXPECT_EQ(once.blocksPerSm, 1);
}

TEST(CostModel, KeptRowsNeedRegistersAndLimitTheBlocksAnSmHolds) {
  Schedule s = Schedule::rowGroup(1, 256, 8, RowStorage::Registers);
  // Two and eight vectors of 8 bf16 a thread: 8 and 32 registers.
  CostEstimate few = estimateCost(s, kBf16, 4096, 32768, 90);
  CostEstimate many = estimateCost(s, kBf16, 16384, 32768, 90);
  EXPECT_EQ(few.registersPerThread, 32 + 8);
  EXPECT_EQ(many.registersPerThread, 32 + 32);
  EXPECT_EQ(few.blocksPerSm, 6);  // 65536 / (40 * 256)
  EXPECT_EQ(many.blocksPerSm, 4); // 65536 / (64 * 256)
}

// Reproducible mode's tree shuffles every chunk: it costs more than the
// default at the same bytes, and more the more chunks a thread has.
TEST(CostModel, ReproducibleSumsCostAButterflyAChunk) {
  auto extra = [](const Schedule &s, int64_t d) {
    CostEstimate plain = estimateCost(s, kBf16, d, 32768, 90);
    CostEstimate tree = estimateCost(s, kBf16, d, 32768, 90, true);
    EXPECT_EQ(tree.bytes, plain.bytes) << s.str();
    return tree.seconds - plain.seconds;
  };
  for (const Schedule &s :
       {Schedule::rowGroup(4, 32, 8, RowStorage::Global),
        Schedule::rowGroup(1, 256, 8, RowStorage::Global)}) {
    EXPECT_GT(extra(s, 1024), 0) << s.str();
    // 16 (or 2) chunks a thread against 4 (or 1).
    EXPECT_GT(extra(s, 4096), extra(s, 1024)) << s.str();
  }
}

// Small rows: a warp or less a row, many rows a block (one reduction
// across warps per row would cost more than moving the row).
TEST(CostModel, SmallRowsAreCheapestWithAWarpOrLessARow) {
  Schedule best = cheapest(bf16Problem(256, 90), 32768);
  EXPECT_LE(best.threadsPerRow, 32) << best.str();
  EXPECT_GT(best.rowsPerBlock, 1) << best.str();
}

// Wide rows on sm_90 with rows enough for every SM: the row is read once
// (kept in registers, shared memory or a cluster's), never re-read.
TEST(CostModel, WideRowsAreReadOnce) {
  for (int64_t d : {8192, 65536, 262144}) {
    Schedule best = cheapest(bf16Problem(d, 90), 4096);
    EXPECT_NE(best.rowStorage, RowStorage::Global) << d << ": " << best.str();
  }
}

// Where there are fewer rows than SMs, a row spread over a cluster keeps
// more SMs busy.
TEST(CostModel, FewWideRowsAreSpreadOverClusters) {
  Schedule best = cheapest(bf16Problem(262144, 90), 16);
  EXPECT_EQ(best.strategy, Strategy::Cluster) << best.str();
  std::vector<Schedule> kept = pruneCandidates(
      scheduleCandidates(bf16Problem(262144, 90)), kBf16, 262144, 16, 90);
  EXPECT_TRUE(std::any_of(kept.begin(), kept.end(), [](const Schedule &s) {
    return s.strategy == Strategy::Cluster;
  }));
}
