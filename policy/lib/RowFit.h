//===- RowFit.h - How a row is spread over threads, for the policy --------===//
//
// The rules of thumb the heuristic and the candidates share.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_POLICY_ROWFIT_H
#define NORMC_POLICY_ROWFIT_H

#include "normc/Abi/Schedule.h"

namespace normc::policy {

/// Vectors a thread handles by default, and the most it keeps in registers
/// by default.
constexpr int64_t kVectorsPerThread = 4, kDefaultRegisterVectors = 8;
/// The fewest threads the heuristic gives a block.
constexpr int64_t kMinBlock = 128;
/// The narrowest fixed d clusters are tried for.
constexpr int64_t kMinClusterD = 16384;

/// Whether a thread's part of a row is small enough to keep in registers
/// by default: at most eight 128-bit vectors of the widest buffer (fewer
/// chunks where a chunk is wider).
bool fewVectors(const Schedule &s, const ScheduleProblem &problem);

/// About four vectors a thread over `features`, at least `minThreads`.
int64_t threadsFor(int64_t features, int64_t width, int64_t minThreads);

} // namespace normc::policy

#endif // NORMC_POLICY_ROWFIT_H
