//===- AssignSchedule.cpp - Choose the schedule of each kernel ------------===//
#include "normc/Dialect/Sched/Transforms/Passes.h"
#include "normc/Policy/Heuristic.h"

namespace normc::sched {
#define GEN_PASS_DEF_SCHEDASSIGNSCHEDULE
#include "normc/Dialect/Sched/Transforms/Passes.h.inc"
} // namespace normc::sched

using namespace mlir;
using namespace normc::sched;

LogicalResult normc::sched::assignSchedules(ModuleOp module,
                                            const ScheduleRequest &request,
                                            int arch, bool overwrite) {
  for (KernelOp kernel : module.getOps<KernelOp>()) {
    // A kernel that sums partials has its fixed schedule
    // (Schedule::forPartialSums) from the start.
    bool sumsPartials = !kernel.getBody().getOps<SumPartialsOp>().empty();
    normc::ScheduleProblem problem = getScheduleProblem(kernel);
    problem.arch = arch;
    bool keep = kernel.getScheduleAttr() && (!overwrite || sumsPartials);
    normc::Schedule chosen = keep ? kernel.getScheduleAttr().getValue()
                                  : normc::completeSchedule(request, problem);
    if (problem.reproducible) {
      std::string why = normc::checkReproducible(chosen, problem);
      if (!why.empty())
        return kernel.emitOpError(why);
    }
    if (keep)
      continue;
    auto diag = [&] { return kernel.emitOpError(); };
    ScheduleAttr schedule =
        ScheduleAttr::getChecked(diag, kernel.getContext(), chosen);
    if (!schedule)
      return failure();
    kernel.setScheduleAttr(schedule);
    if (failed(kernel.verify()))
      return failure();
  }
  return success();
}

namespace {
struct SchedAssignSchedule
    : public normc::sched::impl::SchedAssignScheduleBase<SchedAssignSchedule> {
  using Base::Base;

  void runOnOperation() override {
    // The pass options as a request: what normc-opt spells on its command
    // line, 0 or empty for an option not given.
    normc::ScheduleRequest options;
    auto given = [](int64_t n) {
      return n ? std::optional<int64_t>(n) : std::nullopt;
    };
    options.rowsPerBlock = given(rowsPerBlock);
    options.threadsPerRow = given(threadsPerRow);
    options.vectorWidth = given(vectorWidth);
    options.clusterSize = given(clusterSize);
    if (!strategy.empty()) {
      std::optional<normc::Strategy> parsed = normc::parseStrategy(strategy);
      if (!parsed) {
        getOperation().emitError("unknown strategy '")
            << strategy << "'; expected row_group or cluster";
        return signalPassFailure();
      }
      options.strategy = parsed;
    }
    if (!rowStorage.empty()) {
      options.rowStorage = normc::parseRowStorage(rowStorage);
      if (!options.rowStorage) {
        getOperation().emitError("unknown row-storage '")
            << rowStorage << "'; expected registers, shared or global";
        return signalPassFailure();
      }
    }
    if (failed(assignSchedules(getOperation(), options, arch, overwrite)))
      signalPassFailure();
  }
};
} // namespace
