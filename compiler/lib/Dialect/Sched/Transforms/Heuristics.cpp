//===- Heuristics.cpp - Default schedules for sched.kernel ----------------===//
#include "normc/Dialect/Sched/Transforms/Heuristics.h"
#include "normc/Runtime/Schedule.h"

using namespace mlir;
using namespace normc::sched;

normc::ScheduleProblem normc::sched::getScheduleProblem(KernelOp kernel) {
  ScheduleProblem problem;
  if (kernel.getCols())
    problem.cols = *kernel.getCols();
  problem.widestBits = 8;
  for (auto buffer : kernel.getBody().getOps<BufferOp>())
    if (!isa<StatsType>(buffer.getType()))
      problem.widestBits =
          std::max(problem.widestBits,
                   getElementType(buffer.getType()).getIntOrFloatBitWidth());
  return problem;
}

ScheduleAttr normc::sched::defaultSchedule(KernelOp kernel) {
  Schedule chosen = normc::defaultSchedule(getScheduleProblem(kernel));
  return ScheduleAttr::get(kernel.getContext(), chosen.rowsPerBlock,
                           chosen.threadsPerRow, chosen.vectorWidth,
                           *symbolizeRowStorage(chosen.rowStorage));
}
