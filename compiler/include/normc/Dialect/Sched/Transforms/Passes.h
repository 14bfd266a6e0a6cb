//===- Passes.h - Transformations of the sched dialect --------------------===//
#ifndef NORMC_DIALECT_SCHED_TRANSFORMS_PASSES_H
#define NORMC_DIALECT_SCHED_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "normc/Dialect/Sched/IR/SchedOps.h"

namespace normc::sched {
#define GEN_PASS_DECL
#include "normc/Dialect/Sched/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "normc/Dialect/Sched/Transforms/Passes.h.inc"

/// What sched-assign-schedule does, for a request made in C++: every
/// kernel without a schedule (with `overwrite`, every kernel but those that
/// sum partials) gets `request` completed by the heuristic for its problem
/// on SM version `arch` (0: unknown), and is verified.
mlir::LogicalResult assignSchedules(mlir::ModuleOp module,
                                    const ScheduleRequest &request, int arch,
                                    bool overwrite);
} // namespace normc::sched

#endif // NORMC_DIALECT_SCHED_TRANSFORMS_PASSES_H
