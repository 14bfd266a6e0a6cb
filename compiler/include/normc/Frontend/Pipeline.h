//===- Pipeline.h - The normc compilation pipeline ------------------------===//
#ifndef NORMC_FRONTEND_PIPELINE_H
#define NORMC_FRONTEND_PIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "normc/Abi/Program.h"
#include "normc/Abi/Schedule.h"

#include <string>

namespace normc {

/// The dialects normc IR may contain: norm, sched, arith, math.
void registerNormcDialects(mlir::DialectRegistry &registry);
/// Registers normc's passes with the global registry (for normc-opt).
void registerNormcPasses();

/// A schedule request and the target it is for: a field left out goes to
/// the heuristic, which also takes the target's SM version into account
/// (0: unknown).
struct ScheduleOptions : ScheduleRequest {
  ScheduleOptions() = default;
  ScheduleOptions(const ScheduleRequest &request, int arch = 0)
      : ScheduleRequest(request), arch(arch) {}
  ScheduleOptions(const Schedule &exactly, int arch = 0)
      : ScheduleRequest(exactly), arch(arch) {}
  int arch = 0;
};

/// Which level a module is at: specs, row-level kernels, or kernels lowered
/// to loops (what the emitter prints).
enum class IRLevel { Spec, Rows, Kernel, Empty };
IRLevel getIRLevel(mlir::ModuleOp module);

/// norm-derive-backward with the program's options: every norm.spec
/// becomes its backward spec. A forward program leaves the module as it is.
mlir::LogicalResult deriveProgram(mlir::ModuleOp module,
                                  const Program &program);

/// convert-norm-to-sched: every norm.spec becomes a row-level sched.kernel
/// without a schedule. Diagnostics go to the context's handler.
mlir::LogicalResult lowerToRows(mlir::ModuleOp module);

/// sched-assign-schedule on row-level kernels; options given win over
/// schedules already in the IR.
mlir::LogicalResult assignSchedules(mlir::ModuleOp module,
                                    const ScheduleOptions &options);

/// convert-sched-to-kern, kern-async-copies and kern-allocate-shared: every
/// scheduled sched.kernel becomes a kern.kernel, its shared memory placed.
mlir::LogicalResult lowerToLoops(mlir::ModuleOp module);

/// All three, from whichever level the module is at.
mlir::LogicalResult lowerToSchedule(mlir::ModuleOp module,
                                    const ScheduleOptions &options);

} // namespace normc

#endif // NORMC_FRONTEND_PIPELINE_H
