//===- Heuristics.h - Default schedules for sched.kernel ------------------===//
#ifndef NORMC_DIALECT_SCHED_TRANSFORMS_HEURISTICS_H
#define NORMC_DIALECT_SCHED_TRANSFORMS_HEURISTICS_H

#include "normc/Dialect/Sched/IR/SchedOps.h"
#include "normc/Runtime/Schedule.h"

namespace normc::sched {

/// d and the widest row or feature element of a kernel.
ScheduleProblem getScheduleProblem(KernelOp kernel);

/// normc::defaultSchedule (runtime/include/normc/Runtime/Schedule.h) of the
/// kernel, as an attribute.
ScheduleAttr defaultSchedule(KernelOp kernel);

} // namespace normc::sched

#endif // NORMC_DIALECT_SCHED_TRANSFORMS_HEURISTICS_H
