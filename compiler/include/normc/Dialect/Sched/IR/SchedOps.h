//===- SchedOps.h - Types, attributes and ops of the sched dialect --------===//
#ifndef NORMC_DIALECT_SCHED_IR_SCHEDOPS_H
#define NORMC_DIALECT_SCHED_IR_SCHEDOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/Hashing.h"

#include "normc/Abi/Schedule.h"
#include "normc/Dialect/ElementTypes.h"
#include "normc/Dialect/Sched/IR/SchedDialect.h"

namespace normc {
/// Lets #sched.schedule hold a Schedule as its parameter.
inline llvm::hash_code hash_value(const Schedule &s) {
  return llvm::hash_combine(static_cast<int>(s.strategy), s.rowsPerBlock,
                            s.threadsPerRow, s.vectorWidth,
                            static_cast<int>(s.rowStorage), s.blocksPerRow());
}
} // namespace normc

namespace normc::sched {
/// See Sched_RowScope in SchedInterfaces.td.
template <typename ConcreteType>
class RowScope : public mlir::OpTrait::TraitBase<ConcreteType, RowScope> {};
} // namespace normc::sched

#include "normc/Dialect/Sched/IR/SchedInterfaces.h.inc"

#include "normc/Dialect/Sched/IR/SchedOpsEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "normc/Dialect/Sched/IR/SchedOpsTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "normc/Dialect/Sched/IR/SchedOpsAttrs.h.inc"

#define GET_OP_CLASSES
#include "normc/Dialect/Sched/IR/SchedOps.h.inc"

namespace normc::sched {
/// The element type of any sched type with one (rows, row, chunk, ...).
mlir::Type getElementType(mlir::Type schedType);

/// Row values read more than once are kept between passes; one read once
/// is computed (or loaded) in the pass that reads it.
bool needsStorage(mlir::Value row);

/// d and the widest row or feature element of a kernel of either level.
ScheduleProblem getBufferProblem(KernelInterface kernel);

/// That and what a row-level kernel keeps per feature: the problem its
/// schedule is chosen for and checked against.
ScheduleProblem getScheduleProblem(KernelOp kernel);

/// Checks what both levels' kernels share: the symbol, d, the launch order
/// among the module's kernels, the buffers' names.
mlir::LogicalResult verifyKernelHeader(KernelInterface kernel,
                                       llvm::StringRef symbol,
                                       int64_t launchOrder);

/// Checks every op of a kernel of either level: scalar ops the emitter can
/// print in the accumulate type, and one group size.
mlir::LogicalResult verifyKernelBody(KernelInterface kernel);

/// The features of a group of the op's per-group values, for the ops that
/// have them (a kernel has one size; its verifier says so).
std::optional<int64_t> getGroupSize(mlir::Operation *op);

/// Checks a group size, on `op`: a power of two in [16, 1024].
mlir::LogicalResult verifyGroupSize(mlir::Operation *op, int64_t group);

/// Checks a map or reduction body on `op`: one argument per operand, of its
/// element type, ending with the dialect's yield of `yielded`, and using
/// only scalars from above.
mlir::LogicalResult verifyBody(mlir::Operation *op, mlir::Region &body,
                               mlir::TypeRange inputs, mlir::Type yielded);

/// Checks a scalar op of a kernel body: a result type the emitter can
/// spell, arithmetic in the kernel's `accumulate` type, finite constants.
mlir::LogicalResult verifyScalarOp(mlir::Operation *op, mlir::Type accumulate);

/// The accumulate type of the kernel (of either level) around `op`.
mlir::Type getKernelAccumulate(mlir::Operation *op);

/// Checks, on `op`, that `t` is the kernel's accumulate type.
mlir::LogicalResult verifyAccumulateType(mlir::Operation *op, mlir::Type t);

/// Checks, on `op`, that a value of `value` may be stored into `dest`: the
/// same element type.
mlir::LogicalResult verifySameElement(mlir::Operation *op, mlir::Type value,
                                      mlir::Type dest);
} // namespace normc::sched

#endif // NORMC_DIALECT_SCHED_IR_SCHEDOPS_H
