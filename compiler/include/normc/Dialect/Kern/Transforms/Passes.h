//===- Passes.h - Transformations of the kern dialect ---------------------===//
#ifndef NORMC_DIALECT_KERN_TRANSFORMS_PASSES_H
#define NORMC_DIALECT_KERN_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "normc/Dialect/Kern/IR/KernOps.h"

namespace normc::kern {
#define GEN_PASS_DECL
#include "normc/Dialect/Kern/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "normc/Dialect/Kern/Transforms/Passes.h.inc"
} // namespace normc::kern

#endif // NORMC_DIALECT_KERN_TRANSFORMS_PASSES_H
