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

#include "normc/Dialect/ElementTypes.h"
#include "normc/Dialect/Norm/IR/NormDialect.h"
#include "normc/Dialect/Norm/IR/VjpBuilder.h"

#include "normc/Dialect/Norm/IR/NormOpsEnums.h.inc"
#include "normc/Dialect/Norm/IR/VjpInterface.h.inc"

#define GET_OP_CLASSES
#include "normc/Dialect/Norm/IR/NormOps.h.inc"

namespace normc::norm {
/// A scalar converted to float type `to` (nearest-even when narrowing;
/// f16 <-> bf16 through f32, which is exact).
mlir::Value buildConvert(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                         mlir::Type to);
/// The features of a group of an fp8 output's block scales (the spec's
/// `block`, docs/fp8.md): a power of two in [kMinGroup, kMaxGroup].
constexpr int64_t kMinGroup = 16, kMaxGroup = 1024;
/// G when `value` is a [rows, ceil(d / G)] value per group of G features (a
/// grouped norm.amax, or a norm.map of one), else nullopt.
std::optional<int64_t> groupSizeOf(mlir::Value value);
/// The largest finite value of an element type of the table (448 for
/// f8E4M3FN, 127 for i8): what a quantized output saturates to and divides
/// its amax by.
double largestFinite(mlir::Type type);
} // namespace normc::norm

#endif // NORMC_DIALECT_NORM_IR_NORMOPS_H
