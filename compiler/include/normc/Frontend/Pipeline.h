//===- Pipeline.h - The normc compilation pipeline ------------------------===//
#ifndef NORMC_FRONTEND_PIPELINE_H
#define NORMC_FRONTEND_PIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "normc/Abi/Schedule.h"

#include <string>

namespace normc {

/// The dialects normc IR may contain: norm, sched, arith, math.
void registerNormcDialects(mlir::DialectRegistry &registry);
/// Registers normc's passes with the global registry (for normc-opt).
void registerNormcPasses();

/// Schedule choices; a field left at 0 or empty goes to the heuristic.
using ScheduleOptions = Schedule;

/// Which level a module is at.
enum class IRLevel { Spec, Schedule, Empty };
IRLevel getIRLevel(mlir::ModuleOp module);

/// Lowers every norm.spec to a sched.kernel and assigns schedules to the
/// kernels that lack one. Diagnostics go to the context's handler.
mlir::LogicalResult lowerToSchedule(mlir::ModuleOp module,
                                    const ScheduleOptions &options);

} // namespace normc

#endif // NORMC_FRONTEND_PIPELINE_H
