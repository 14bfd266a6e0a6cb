//===- NormDialect.cpp - The spec-level normalization dialect -------------===//
#include "normc/Dialect/Norm/IR/NormDialect.h"
#include "normc/Dialect/Norm/IR/NormOps.h"

#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace normc::norm;

#include "normc/Dialect/Norm/IR/NormOpsDialect.cpp.inc"
#include "normc/Dialect/Norm/IR/NormOpsEnums.cpp.inc"

void NormDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "normc/Dialect/Norm/IR/NormOps.cpp.inc"
      >();
}
