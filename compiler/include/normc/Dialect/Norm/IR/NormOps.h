//===- NormOps.h - Operations of the norm dialect -------------------------===//
#ifndef NORMC_DIALECT_NORM_IR_NORMOPS_H
#define NORMC_DIALECT_NORM_IR_NORMOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "normc/Dialect/Norm/IR/NormDialect.h"

#include "normc/Dialect/Norm/IR/NormOpsEnums.h.inc"

#define GET_OP_CLASSES
#include "normc/Dialect/Norm/IR/NormOps.h.inc"

#endif // NORMC_DIALECT_NORM_IR_NORMOPS_H
