//===- ScheduleTest.cpp - The schedule space as data ----------------------===//
#include "normc/Abi/Schedule.h"

#include <gtest/gtest.h>

using namespace normc;

TEST(Schedule, TextRoundTrips) {
  Schedule s{4, 32, 8, "shared"};
  EXPECT_EQ(s.str(),
            "rows_per_block=4,threads_per_row=32,vector_width=8,row_storage="
            "shared");
  EXPECT_EQ(Schedule::parse(s.str()), s);
}

TEST(Schedule, MalformedTextIsRejected) {
  for (const char *text :
       {"", "rows_per_block=4",
        "rows_per_block=4,threads_per_row=32,"
        "vector_width=8,row_storage=disk",
        "rows_per_block=0,threads_per_row=32,vector_width=8,row_storage=global",
        "rows_per_block=x,threads_per_row=32,vector_width=8,row_storage=global",
        "rows_per_block=1,threads_per_row=32,vector_width=8,row_storage=global,"
        "extra=1"})
    EXPECT_FALSE(Schedule::parse(text)) << text;
}

TEST(Schedule, DefaultIsTheHeuristic) {
  // bf16 at d = 4096: 512 vectors of 8, 128 threads, 4 vectors a thread.
  EXPECT_EQ(defaultSchedule({4096, 16}), (Schedule{1, 128, 8, "registers"}));
  // d at run time: re-read from global memory.
  EXPECT_EQ(defaultSchedule({std::nullopt, 32}),
            (Schedule{1, 256, 4, "global"}));
  // Too wide for registers.
  EXPECT_EQ(defaultSchedule({262144, 32}).rowStorage, "global");
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
      int64_t block = s.rowsPerBlock * s.threadsPerRow;
      EXPECT_EQ(block % 32, 0) << s.str();
      EXPECT_LE(block, 1024) << s.str();
      EXPECT_LE(s.vectorWidth * int64_t(problem.widestBits), 128) << s.str();
      if (!problem.cols) {
        EXPECT_NE(s.rowStorage, "registers") << s.str();
      }
    }
  }
}
