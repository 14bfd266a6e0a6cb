//===- SchedDialect.h - The schedule-level dialect ------------------------===//
#ifndef NORMC_DIALECT_SCHED_IR_SCHEDDIALECT_H
#define NORMC_DIALECT_SCHED_IR_SCHEDDIALECT_H

#include "mlir/IR/Dialect.h"

#include "normc/Dialect/Sched/IR/SchedOpsDialect.h.inc"

#endif // NORMC_DIALECT_SCHED_IR_SCHEDDIALECT_H
