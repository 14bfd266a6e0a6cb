//===- Schedule.h - The schedule space, as plain data ---------------------===//
//
// A schedule is four numbers and a word; the compiler's #sched.schedule
// attribute holds the same. This header is shared by the compiler (its
// default schedule), the autotuner (its search space) and packs (their
// candidates), and needs no LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_RUNTIME_SCHEDULE_H
#define NORMC_RUNTIME_SCHEDULE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normc {

/// A field left at 0 (or empty) means "choose it by the heuristic".
struct Schedule {
  int64_t rowsPerBlock = 0;
  int64_t threadsPerRow = 0;
  int64_t vectorWidth = 0;
  std::string rowStorage; // "registers" | "shared" | "global"

  /// "rows_per_block=1,threads_per_row=256,vector_width=8,row_storage=global"
  std::string str() const;
  /// The inverse of str(); nullopt when malformed.
  static std::optional<Schedule> parse(std::string_view text);
  bool operator==(const Schedule &other) const;
};

/// What the schedule space depends on.
struct ScheduleProblem {
  std::optional<int64_t> cols; // d, when fixed at compile time
  unsigned widestBits = 32;    // widest element of the row/feature buffers
};

/// Elements per 128-bit access of the widest buffer.
int64_t defaultVectorWidth(const ScheduleProblem &problem);

/// The schedule used when nothing is tuned: 128-bit accesses, about four
/// vectors per thread, at least 128 threads a block; the row stays in
/// registers when d is fixed and that takes at most eight vectors a thread,
/// else it is re-read from global memory.
Schedule defaultSchedule(const ScheduleProblem &problem);

/// Every schedule worth measuring for the problem, the default first:
/// threads per row from 1 to 1024 keeping at least half of them busy,
/// blocks of 128 or 256 threads, full and half vector width, and each row
/// storage that is legal (registers only with d fixed and at most eight
/// vectors a thread). Device limits (shared memory) are checked at launch.
std::vector<Schedule> scheduleCandidates(const ScheduleProblem &problem);

} // namespace normc

#endif // NORMC_RUNTIME_SCHEDULE_H
