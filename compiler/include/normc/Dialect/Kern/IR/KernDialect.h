//===- KernDialect.h - The kernel-level dialect ---------------------------===//
#ifndef NORMC_DIALECT_KERN_IR_KERNDIALECT_H
#define NORMC_DIALECT_KERN_IR_KERNDIALECT_H

#include "mlir/IR/Dialect.h"

#include "normc/Dialect/Kern/IR/KernOpsDialect.h.inc"

#endif // NORMC_DIALECT_KERN_IR_KERNDIALECT_H
