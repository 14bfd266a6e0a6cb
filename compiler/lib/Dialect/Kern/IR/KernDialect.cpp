//===- KernDialect.cpp - The kernel-level dialect -------------------------===//
#include "normc/Dialect/Kern/IR/KernDialect.h"
#include "normc/Dialect/Kern/IR/KernOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace normc::kern;

#include "normc/Dialect/Kern/IR/KernOpsDialect.cpp.inc"
#include "normc/Dialect/Kern/IR/KernOpsEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "normc/Dialect/Kern/IR/KernOpsAttrs.cpp.inc"

void KernDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "normc/Dialect/Kern/IR/KernOpsAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "normc/Dialect/Kern/IR/KernOps.cpp.inc"
      >();
}
