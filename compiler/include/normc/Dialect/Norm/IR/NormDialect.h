//===- NormDialect.h - The spec-level normalization dialect ---------------===//
#ifndef NORMC_DIALECT_NORM_IR_NORMDIALECT_H
#define NORMC_DIALECT_NORM_IR_NORMDIALECT_H

#include "mlir/IR/Dialect.h"

#include "normc/Dialect/Norm/IR/NormOpsDialect.h.inc"

#endif // NORMC_DIALECT_NORM_IR_NORMDIALECT_H
