//===- Passes.h - Transformations of the norm dialect ---------------------===//
#ifndef NORMC_DIALECT_NORM_TRANSFORMS_PASSES_H
#define NORMC_DIALECT_NORM_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "normc/Dialect/Norm/IR/NormOps.h"

namespace normc::norm {
#define GEN_PASS_DECL
#include "normc/Dialect/Norm/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "normc/Dialect/Norm/Transforms/Passes.h.inc"
} // namespace normc::norm

#endif // NORMC_DIALECT_NORM_TRANSFORMS_PASSES_H
