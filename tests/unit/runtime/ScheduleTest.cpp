//===- ScheduleTest.cpp - The schedule space as data ----------------------===//
#include "normc/Abi/Schedule.h"
#include "normc/Policy/Candidates.h"
#include "normc/Policy/Heuristic.h"

#include <gtest/gtest.h>

using namespace normc;

TEST(Schedule, TextRoundTrips) {
  Schedule s = Schedule::rowGroup(4, 32, 8, RowStorage::Shared);
  EXPECT_EQ(s.str(), "strategy=row_group,rows_per_block=4,threads_per_row=32,"
                     "vector_width=8,row_storage=shared");
  EXPECT_EQ(Schedule::parse(s.str()), s);
}

TEST(Schedule, MalformedTextIsRejected) {
  const char *complete = "strategy=row_group,rows_per_block=1,threads_per_row="
                         "32,vector_width=8,row_storage=global";
  ASSERT_TRUE(Schedule::parse(complete));
  for (const char *text :
       {"", "rows_per_block=4",
        // No strategy.
        "rows_per_block=1,threads_per_row=32,vector_width=8,row_storage="
        "global",
        "strategy=cluster,rows_per_block=1,threads_per_row=32,vector_width=8,"
        "row_storage=global",
        "strategy=row_group,rows_per_block=4,threads_per_row=32,"
        "vector_width=8,row_storage=disk",
        "strategy=row_group,rows_per_block=0,threads_per_row=32,vector_width="
        "8,row_storage=global",
        "strategy=row_group,rows_per_block=x,threads_per_row=32,vector_width="
        "8,row_storage=global",
        "strategy=row_group,rows_per_block=1,rows_per_block=1,threads_per_row="
        "32,vector_width=8,row_storage=global",
        "strategy=row_group,rows_per_block=1,threads_per_row=32,vector_width="
        "8,row_storage=global,extra=1"})
    EXPECT_FALSE(Schedule::parse(text)) << text;
}

TEST(Schedule, DefaultIsTheHeuristic) {
  // bf16 at d = 4096: 512 vectors of 8, 128 threads, 4 vectors a thread.
  EXPECT_EQ(defaultSchedule({4096, 16}),
            Schedule::rowGroup(1, 128, 8, RowStorage::Registers));
  // d at run time: re-read from global memory.
  EXPECT_EQ(defaultSchedule({std::nullopt, 32}),
            Schedule::rowGroup(1, 256, 4, RowStorage::Global));
  // Too wide for registers.
  EXPECT_EQ(defaultSchedule({262144, 32}).rowStorage, RowStorage::Global);
  // Eight bf16 vectors a thread at 1024 threads would spill.
  EXPECT_EQ(defaultSchedule({65536, 16}).rowStorage, RowStorage::Global);
}

TEST(Schedule, CheckNamesTheBrokenRule) {
  EXPECT_EQ(checkSchedule(Schedule::rowGroup(1, 128, 8, RowStorage::Global)),
            "");
  EXPECT_NE(checkSchedule(Schedule::rowGroup(1, 96, 8, RowStorage::Global))
                .find("power of two"),
            std::string::npos);
  EXPECT_NE(checkSchedule(Schedule::rowGroup(3, 8, 8, RowStorage::Global))
                .find("whole warps"),
            std::string::npos);
  EXPECT_NE(
      checkSchedule(Schedule::rowGroup(1 << 30, 1 << 10, 8, RowStorage::Global))
          .find("[1, 1024]"),
      std::string::npos);
  ScheduleProblem runtimeD{std::nullopt, 16};
  EXPECT_NE(checkSchedule(Schedule::rowGroup(1, 128, 8, RowStorage::Registers),
                          &runtimeD)
                .find("d fixed"),
            std::string::npos);
  ScheduleProblem f32{4096, 32};
  EXPECT_NE(
      checkSchedule(Schedule::rowGroup(1, 128, 8, RowStorage::Global), &f32)
          .find("128 bits"),
      std::string::npos);
}

TEST(Schedule, CompletingARequestKeepsWhatWasGiven) {
  ScheduleRequest request;
  request.threadsPerRow = 64;
  ScheduleProblem problem{4096, 16};
  Schedule s = completeSchedule(request, problem);
  EXPECT_EQ(s.threadsPerRow, 64);
  EXPECT_EQ(s.rowsPerBlock, 2); // blocks of at least 128 threads
  EXPECT_EQ(s.vectorWidth, defaultSchedule(problem).vectorWidth);
  EXPECT_EQ(checkSchedule(s, &problem), "") << s.str();
  // Nothing asked is the heuristic's schedule.
  EXPECT_TRUE(ScheduleRequest().empty());
  EXPECT_EQ(completeSchedule({}, problem), defaultSchedule(problem));
}

TEST(Schedule, ACompleteScheduleAsksForItself) {
  for (ScheduleProblem problem :
       {ScheduleProblem{4096, 16}, ScheduleProblem{std::nullopt, 32}}) {
    problem.arch = 90;
    for (const Schedule &s : scheduleCandidates(problem))
      EXPECT_EQ(completeSchedule(ScheduleRequest(s), problem), s) << s.str();
  }
}

TEST(Schedule, CandidatesAreLegalAndStartWithTheDefault) {
  for (ScheduleProblem problem :
       {ScheduleProblem{1, 32}, ScheduleProblem{127, 16},
        ScheduleProblem{4096, 16}, ScheduleProblem{65536, 32},
        ScheduleProblem{std::nullopt, 16}}) {
    std::vector<Schedule> all = scheduleCandidates(problem);
    ASSERT_FALSE(all.empty());
    EXPECT_EQ(all.front(), defaultSchedule(problem));
    for (const Schedule &s : all) {
      EXPECT_EQ(checkSchedule(s, &problem), "") << s.str();
      if (!problem.d) {
        EXPECT_NE(s.rowStorage, RowStorage::Registers) << s.str();
      }
    }
  }
}

TEST(Schedule, ClusterTextRoundTrips) {
  Schedule s = Schedule::cluster(8, 1024, 8, RowStorage::Registers);
  EXPECT_EQ(s.str(), "strategy=cluster,cluster_size=8,rows_per_block=1,"
                     "threads_per_row=1024,vector_width=8,row_storage="
                     "registers");
  EXPECT_EQ(Schedule::parse(s.str()), s);
  EXPECT_EQ(s.blocksPerRow(), 8);
  EXPECT_EQ(Schedule::rowGroup(1, 256, 8, RowStorage::Global).blocksPerRow(),
            1);
  // cluster_size belongs to strategy cluster, which needs it.
  EXPECT_FALSE(Schedule::parse("strategy=row_group,cluster_size=2,"
                               "rows_per_block=1,threads_per_row=32,"
                               "vector_width=8,row_storage=global"));
  EXPECT_FALSE(Schedule::parse("strategy=cluster,rows_per_block=1,"
                               "threads_per_row=32,vector_width=8,"
                               "row_storage=global"));
}

TEST(Schedule, ClusterRules) {
  ScheduleProblem wide{262144, 16};
  wide.arch = 90;
  EXPECT_EQ(
      checkSchedule(Schedule::cluster(8, 512, 8, RowStorage::Registers), &wide),
      "");
  auto broken = [](Schedule s, const ScheduleProblem *problem,
                   const char *rule) {
    std::string why = checkSchedule(s, problem);
    EXPECT_NE(why.find(rule), std::string::npos) << s.str() << ": " << why;
  };
  broken(Schedule::cluster(16, 1024, 8, RowStorage::Shared), nullptr,
         "power of two in [2, 8]");
  broken(Schedule::cluster(3, 1024, 8, RowStorage::Shared), nullptr,
         "power of two in [2, 8]");
  Schedule twoRows = Schedule::cluster(2, 128, 8, RowStorage::Global);
  twoRows.rowsPerBlock = 2;
  broken(twoRows, nullptr, "rows_per_block must be 1");
  ScheduleProblem runtimeD{std::nullopt, 16};
  broken(Schedule::cluster(2, 256, 8, RowStorage::Global), &runtimeD,
         "d fixed");
  ScheduleProblem sm80{262144, 16};
  sm80.arch = 80;
  broken(Schedule::cluster(8, 1024, 8, RowStorage::Global), &sm80, "sm_90");
  // Registers and shared memory are sized by the block's slice.
  broken(Schedule::cluster(2, 1024, 8, RowStorage::Registers), &wide,
         "registers a thread");
  broken(Schedule::cluster(2, 1024, 8, RowStorage::Shared), &wide,
         "shared memory");
}

TEST(Schedule, ClusterSlicesCoverTheRowOnce) {
  for (int64_t d : {1, 1000, 4097, 20000, 262144})
    for (int64_t blocks : {2, 4, 8})
      for (int64_t threads : {32, 256, 1024}) {
        Schedule s = Schedule::cluster(blocks, threads, 8, RowStorage::Global);
        int64_t slice = featuresPerBlock(s, d);
        // Whole passes of the block's threads, and all of d.
        EXPECT_EQ(slice % (threads * 8), 0);
        EXPECT_GE(slice * blocks, d);
        EXPECT_LT(slice * (blocks - 1), d + threads * 8 * blocks);
        EXPECT_EQ(vectorsPerThread(s, d), slice / (threads * 8));
      }
}

TEST(Schedule, TheHeuristicUsesClustersOnSm90ForTheWidestRows) {
  ScheduleProblem bf16{262144, 16}, f32{262144, 32};
  bf16.arch = f32.arch = 90;
  // bf16: four blocks keep 128 KiB of the row each in shared memory (four
  // vectors a thread in registers would leave 1024 threads too few).
  EXPECT_EQ(defaultSchedule(bf16),
            Schedule::cluster(4, 1024, 8, RowStorage::Shared));
  // f32: registers would take 32 a thread; 128 KiB of shared memory a block.
  EXPECT_EQ(defaultSchedule(f32),
            Schedule::cluster(8, 1024, 4, RowStorage::Shared));
  // Rows that fit one block's shared memory stay in one block.
  ScheduleProblem fits{65536, 16};
  fits.arch = 90;
  EXPECT_EQ(defaultSchedule(fits).strategy, Strategy::RowGroup);
  EXPECT_EQ(defaultSchedule(fits).rowStorage, RowStorage::Shared);
  // Without sm_90 (or knowing the target), the widest rows are re-read.
  ScheduleProblem sm80 = bf16;
  sm80.arch = 80;
  EXPECT_EQ(defaultSchedule(sm80).rowStorage, RowStorage::Global);
  EXPECT_EQ(defaultSchedule({262144, 16}).strategy, Strategy::RowGroup);
}

TEST(Schedule, Sm90CandidatesIncludeLegalClusters) {
  ScheduleProblem problem{65536, 16};
  problem.arch = 90;
  std::vector<Schedule> all = scheduleCandidates(problem);
  int clusters = 0;
  for (const Schedule &s : all) {
    EXPECT_EQ(checkSchedule(s, &problem), "") << s.str();
    clusters += s.strategy == Strategy::Cluster;
  }
  EXPECT_GE(clusters, 6);
  problem.arch = 80;
  for (const Schedule &s : scheduleCandidates(problem))
    EXPECT_EQ(s.strategy, Strategy::RowGroup) << s.str();
}

TEST(Schedule, CompletingAClusterKeepsItsSize) {
  ScheduleRequest request;
  request.strategy = Strategy::Cluster;
  request.clusterSize = 4;
  ScheduleProblem problem{20000, 16};
  problem.arch = 90;
  Schedule s = completeSchedule(request, problem);
  EXPECT_EQ(s.strategy, Strategy::Cluster);
  EXPECT_EQ(s.clusterSize, 4);
  EXPECT_EQ(s.rowsPerBlock, 1);
  EXPECT_EQ(checkSchedule(s, &problem), "") << s.str();
  // A cluster size alone asks for the cluster strategy.
  request.strategy.reset();
  EXPECT_EQ(completeSchedule(request, problem), s);
}

// fp8 rows: chunks of 16 features, so that their stores are 16 bytes; the
// wider rows then move two or four 128-bit vectors a chunk, and no more.
TEST(Schedule, Fp8RowsAreStoredSixteenBytesAtATime) {
  ScheduleProblem bf16{4096, 16}, f32{4096, 32}, f64{4096, 64};
  bf16.bytesRows = f32.bytesRows = f64.bytesRows = true;
  EXPECT_EQ(defaultVectorWidth(bf16), 16);
  EXPECT_EQ(defaultVectorWidth(f32), 16);
  EXPECT_EQ(defaultVectorWidth(f64), 8);
  EXPECT_EQ(defaultSchedule(bf16).vectorWidth, 16);
  EXPECT_EQ(
      checkSchedule(Schedule::rowGroup(1, 64, 16, RowStorage::Global), &f32),
      "");
  EXPECT_NE(
      checkSchedule(Schedule::rowGroup(1, 64, 16, RowStorage::Global), &f64)
          .find("exceeds 512 bits"),
      std::string::npos);
  // Without byte rows, 128 bits stay the limit.
  ScheduleProblem plain{4096, 16};
  EXPECT_EQ(defaultVectorWidth(plain), 8);
  EXPECT_NE(
      checkSchedule(Schedule::rowGroup(1, 64, 16, RowStorage::Global), &plain)
          .find("exceeds 128 bits"),
      std::string::npos);
  for (const Schedule &s : scheduleCandidates(bf16))
    EXPECT_GE(s.vectorWidth, 8) << s.str();
}
