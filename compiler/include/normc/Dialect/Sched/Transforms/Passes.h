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
} // namespace normc::sched

#endif // NORMC_DIALECT_SCHED_TRANSFORMS_PASSES_H
