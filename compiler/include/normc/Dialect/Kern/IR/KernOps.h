//===- KernOps.h - Attributes and ops of the kern dialect -----------------===//
#ifndef NORMC_DIALECT_KERN_IR_KERNOPS_H
#define NORMC_DIALECT_KERN_IR_KERNOPS_H

#include "normc/Abi/SharedLayout.h"
#include "normc/Dialect/Kern/IR/KernDialect.h"
#include "normc/Dialect/Sched/IR/SchedOps.h"

namespace normc {
/// Lets #kern.shared_layout hold a SharedLayout as its parameter.
inline llvm::hash_code hash_value(const SharedLayout &layout) {
  llvm::hash_code code = llvm::hash_value(layout.regions.size());
  for (const SharedRegion &r : layout.regions)
    code = llvm::hash_combine(code, r.rows, r.elementBytes, r.vectorWidth,
                              r.features, r.group);
  return code;
}
} // namespace normc

#include "normc/Dialect/Kern/IR/KernOpsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "normc/Dialect/Kern/IR/KernOpsAttrs.h.inc"

#define GET_OP_CLASSES
#include "normc/Dialect/Kern/IR/KernOps.h.inc"

namespace normc::kern {
/// Levels of a binary counter that adds up to kMaxD values pairwise: the
/// deepest tree a kern.accumulator pairwise or kern.tree_total may have.
constexpr int64_t kMaxTreeLevels = 25;

/// d, the widest element, and what the kernel keeps per feature: the
/// problem its schedule is checked against.
ScheduleProblem getScheduleProblem(KernelOp kernel);

/// The kept row that a read_kept, keep or async_keep accesses; null for
/// other ops.
mlir::Value getKeptRowAccessed(mlir::Operation *op);

/// The bytes of a chunk of `vectorWidth` elements of a kept row.
int64_t chunkBytes(mlir::Type kept, int64_t vectorWidth);

/// Whether kern.async_keep can copy a chunk of `bytes` (cp.async: 4 to 64).
inline bool isAsyncCopySize(int64_t bytes) { return bytes >= 4 && bytes <= 64; }

/// The region of the kernel's shared layout that each slot of its
/// kern.shared_rows and its kern.shared_groups table need, in that order
/// (what kern-allocate-shared places and the verifier checks).
SharedLayout getNeededSharedLayout(KernelOp kernel);

/// Bytes of static shared memory the kernel declares (cross-warp scratch,
/// the cluster slot).
int64_t getStaticSharedBytes(KernelOp kernel);
} // namespace normc::kern

#endif // NORMC_DIALECT_KERN_IR_KERNOPS_H
