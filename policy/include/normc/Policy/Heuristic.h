//===- Heuristic.h - The schedule used when nothing is tuned --------------===//
//
// What the compiler emits by default and what completes a partial schedule
// (`normc compile --threads-per-row=...`): a rule of thumb that needs no
// measurement. The tuner starts from it (Candidates.h).
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_POLICY_HEURISTIC_H
#define NORMC_POLICY_HEURISTIC_H

#include "normc/Abi/Schedule.h"

#include <string>

namespace normc {

/// Dynamic shared memory the heuristic lets a block use on `arch`: what
/// every device of that generation allows once opted in.
int64_t sharedBudget(int arch);

/// Elements per 128-bit access of the widest buffer; with rows of bytes,
/// 16 (a 16-byte store) where maxChunkBits allows.
int64_t defaultVectorWidth(const ScheduleProblem &problem);

/// How the heuristic spreads a row over a row group: threads per row and
/// elements per vector. A thread adds its vectors in order, a warp's
/// threads and then a row's warps in a fixed tree, so these two fix the
/// order in which a row's features are added; rows per block and row
/// storage do not change it.
struct RowShape {
  int64_t threadsPerRow = 0;
  int64_t vectorWidth = 0;
};
/// 128-bit accesses and about four vectors a thread for a fixed d (at least
/// one thread), 256 threads with d at run time; the same on every arch.
RowShape defaultRowShape(const ScheduleProblem &problem);

/// Why `schedule` may not run a reproducible kernel of `problem`, or empty:
/// reproducible mode adds every row in one tree over the feature index,
/// which every row group computes, and a cluster only where each block's
/// slice is an aligned power of two of features (an aligned subtree) and a
/// block has at least a warp.
std::string checkReproducible(const Schedule &schedule,
                              const ScheduleProblem &problem);

/// The schedule used when nothing is tuned: 128-bit accesses, about four
/// vectors per thread, at least 128 threads a block; the row stays in
/// registers when d is fixed and that takes at most eight vectors a thread,
/// else in shared memory when it fits sharedBudget(arch), else (sm_90) in
/// a cluster of the fewest blocks whose slices fit registers or shared
/// memory; else it is re-read from global memory. With d at run time: one
/// row of 256 threads a block, re-read from global memory, which fits any
/// d (the runtime picks the same schedule with the row in shared memory at
/// launch where d fits the device). In reproducible mode, never a cluster.
Schedule defaultSchedule(const ScheduleProblem &problem);

/// `request` with the fields it leaves out taken from the heuristic. When
/// threads_per_row is given without rows_per_block, blocks keep at least
/// 128 threads.
Schedule completeSchedule(const ScheduleRequest &request,
                          const ScheduleProblem &problem);

} // namespace normc

#endif // NORMC_POLICY_HEURISTIC_H
