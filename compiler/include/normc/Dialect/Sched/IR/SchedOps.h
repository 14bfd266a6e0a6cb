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
#include "normc/Abi/SharedLayout.h"
#include "normc/Dialect/Sched/IR/SchedDialect.h"

namespace normc {
/// Lets #sched.schedule hold a Schedule as its parameter.
inline llvm::hash_code hash_value(const Schedule &s) {
  return llvm::hash_combine(static_cast<int>(s.strategy), s.rowsPerBlock,
                            s.threadsPerRow, s.vectorWidth,
                            s.rowStorage ? static_cast<int>(*s.rowStorage) : -1,
                            s.blocksPerRow());
}
/// Lets #sched.shared_layout hold a SharedLayout as its parameter.
inline llvm::hash_code hash_value(const SharedLayout &layout) {
  llvm::hash_code code = llvm::hash_value(layout.regions.size());
  for (const SharedRegion &r : layout.regions)
    code = llvm::hash_combine(code, r.rows, r.elementBytes, r.vectorWidth,
                              r.features, r.group);
  return code;
}
} // namespace normc

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

/// d, the widest row or feature element, and what a row-level kernel keeps
/// per feature.
ScheduleProblem getScheduleProblem(KernelOp kernel);

/// The features of a group of the op's per-group values, for the ops that
/// have them (a kernel has one size; its verifier says so).
std::optional<int64_t> getGroupSize(mlir::Operation *op);

/// The kept row that a read_kept, keep or async_keep accesses; null for
/// other ops.
mlir::Value getKeptRowAccessed(mlir::Operation *op);

/// The bytes of a chunk of `vectorWidth` elements of a kept row, and
/// whether sched.async_keep can copy it (cp.async: 4 to 64 bytes).
int64_t chunkBytes(mlir::Type kept, int64_t vectorWidth);

/// The region of the kernel's shared layout that each slot of its
/// sched.shared_rows and its sched.shared_groups table need, in that order
/// (what sched-allocate-shared places and the verifier checks).
SharedLayout getNeededSharedLayout(KernelOp kernel);

/// Bytes of static shared memory the kernel declares (cross-warp scratch,
/// the cluster slot).
int64_t getStaticSharedBytes(KernelOp kernel);
inline bool isAsyncCopySize(int64_t bytes) { return bytes >= 4 && bytes <= 64; }
} // namespace normc::sched

#endif // NORMC_DIALECT_SCHED_IR_SCHEDOPS_H
