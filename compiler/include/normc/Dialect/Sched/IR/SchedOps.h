//===- SchedOps.h - Types, attributes and ops of the sched dialect --------===//
#ifndef NORMC_DIALECT_SCHED_IR_SCHEDOPS_H
#define NORMC_DIALECT_SCHED_IR_SCHEDOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "normc/Dialect/Sched/IR/SchedDialect.h"

#include "normc/Dialect/Sched/IR/SchedOpsEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "normc/Dialect/Sched/IR/SchedOpsTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "normc/Dialect/Sched/IR/SchedOpsAttrs.h.inc"

#define GET_OP_CLASSES
#include "normc/Dialect/Sched/IR/SchedOps.h.inc"

namespace normc::sched {
/// The element type of a `!sched.rows/features/stats/row` type.
mlir::Type getElementType(mlir::Type schedType);
} // namespace normc::sched

#endif // NORMC_DIALECT_SCHED_IR_SCHEDOPS_H
