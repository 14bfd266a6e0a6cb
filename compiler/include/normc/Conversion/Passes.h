//===- Passes.h - Conversions between normc dialects ----------------------===//
#ifndef NORMC_CONVERSION_PASSES_H
#define NORMC_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "normc/Dialect/Kern/IR/KernDialect.h"
#include "normc/Dialect/Sched/IR/SchedDialect.h"

namespace normc {
#define GEN_PASS_DECL
#include "normc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "normc/Conversion/Passes.h.inc"
} // namespace normc

#endif // NORMC_CONVERSION_PASSES_H
