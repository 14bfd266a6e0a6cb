//===- ScheduleTest.cpp - The schedule space as data ----------------------===//
#include "normc/Abi/Schedule.h"

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
                .find("cols fixed"),
            std::string::npos);
  ScheduleProblem f32{4096, 32};
  EXPECT_NE(
      checkSchedule(Schedule::rowGroup(1, 128, 8, RowStorage::Global), &f32)
          .find("128 bits"),
      std::string::npos);
}

TEST(Schedule, CompletingOptionsKeepsWhatWasGiven) {
  Schedule options;
  options.threadsPerRow = 64;
  Schedule s = completeSchedule(options, {4096, 16});
  EXPECT_EQ(s.threadsPerRow, 64);
  EXPECT_EQ(s.rowsPerBlock, 2); // blocks of at least 128 threads
  EXPECT_TRUE(s.complete());
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
      if (!problem.cols) {
        EXPECT_NE(s.rowStorage, RowStorage::Registers) << s.str();
      }
    }
  }
}
