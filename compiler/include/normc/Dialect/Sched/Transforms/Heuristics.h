//===- Heuristics.h - Default schedules for sched.kernel ------------------===//
#ifndef NORMC_DIALECT_SCHED_TRANSFORMS_HEURISTICS_H
#define NORMC_DIALECT_SCHED_TRANSFORMS_HEURISTICS_H

#include "normc/Dialect/Sched/IR/SchedOps.h"

namespace normc::sched {

/// Elements per 128-bit access of the widest row or feature buffer.
int64_t defaultVectorWidth(KernelOp kernel);

/// The schedule used when nothing is tuned: one access of 128 bits, about
/// four vectors per thread, at least 128 threads per block; the row stays
/// in registers when d is fixed and that takes at most eight vectors per
/// thread, else it is re-read from global memory.
ScheduleAttr defaultSchedule(KernelOp kernel);

} // namespace normc::sched

#endif // NORMC_DIALECT_SCHED_TRANSFORMS_HEURISTICS_H
