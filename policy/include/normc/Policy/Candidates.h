//===- Candidates.h - The schedules the tuner may measure -----------------===//
#ifndef NORMC_POLICY_CANDIDATES_H
#define NORMC_POLICY_CANDIDATES_H

#include "normc/Abi/Schedule.h"

#include <vector>

namespace normc {

/// Every schedule worth measuring for the problem, the default first:
/// threads per row from 1 to 1024 keeping at least half of them busy,
/// blocks of 128 or 256 threads, full and half vector width, and each row
/// storage that is legal; on sm_90 with d fixed and at least 16384, also
/// clusters of 2 to 8 blocks of 256 to 1024 threads keeping the slice in
/// registers or shared memory. Every one passes checkSchedule; device limits
/// (shared memory) are checked at launch. In reproducible mode only those
/// checkReproducible allows: every row group, and the clusters whose
/// slices are powers of two. The cost model (CostModel.h) keeps the few the
/// tuner compiles.
std::vector<Schedule> scheduleCandidates(const ScheduleProblem &problem);

} // namespace normc

#endif // NORMC_POLICY_CANDIDATES_H
