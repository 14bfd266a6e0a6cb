//===- AssignSchedule.cpp - Choose the schedule of each kernel ------------===//
#include "normc/Dialect/Sched/Transforms/Heuristics.h"
#include "normc/Dialect/Sched/Transforms/Passes.h"

namespace normc::sched {
#define GEN_PASS_DEF_SCHEDASSIGNSCHEDULE
#include "normc/Dialect/Sched/Transforms/Passes.h.inc"
} // namespace normc::sched

using namespace mlir;
using namespace normc::sched;

namespace {
struct SchedAssignSchedule
    : public normc::sched::impl::SchedAssignScheduleBase<SchedAssignSchedule> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<RowStorage> storage;
    if (!rowStorage.empty()) {
      storage = symbolizeRowStorage(rowStorage);
      if (!storage) {
        getOperation().emitError("unknown row-storage '")
            << rowStorage << "'; expected registers, shared or global";
        return signalPassFailure();
      }
    }
    for (KernelOp kernel : getOperation().getOps<KernelOp>()) {
      if (kernel.getScheduleAttr() && !overwrite)
        continue;
      ScheduleAttr chosen = defaultSchedule(kernel);
      auto pick = [](int64_t option, int64_t fallback) {
        return option > 0 ? option : fallback;
      };
      int64_t threads = pick(threadsPerRow, chosen.getThreadsPerRow());
      // Keep blocks of at least a warp when only the row width was given.
      int64_t rows = pick(
          rowsPerBlock,
          std::max<int64_t>(1, (threadsPerRow > 0 ? 128 / threads
                                                  : chosen.getRowsPerBlock())));
      auto diag = [&] { return kernel.emitOpError("invalid schedule: "); };
      ScheduleAttr schedule =
          ScheduleAttr::getChecked(diag, kernel.getContext(), rows, threads,
                                   pick(vectorWidth, chosen.getVectorWidth()),
                                   storage.value_or(chosen.getRowStorage()));
      if (!schedule)
        return signalPassFailure();
      kernel.setScheduleAttr(schedule);
      if (failed(kernel.verify()))
        return signalPassFailure();
    }
  }
};
} // namespace
