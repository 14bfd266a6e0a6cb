//===- SchedDialect.cpp - The schedule-level dialect ----------------------===//
#include "normc/Dialect/Sched/IR/SchedDialect.h"
#include "normc/Dialect/Sched/IR/SchedOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace normc::sched;

#include "normc/Dialect/Sched/IR/SchedOpsDialect.cpp.inc"
#include "normc/Dialect/Sched/IR/SchedOpsEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "normc/Dialect/Sched/IR/SchedOpsTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "normc/Dialect/Sched/IR/SchedOpsAttrs.cpp.inc"

void SchedDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "normc/Dialect/Sched/IR/SchedOpsTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "normc/Dialect/Sched/IR/SchedOpsAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "normc/Dialect/Sched/IR/SchedOps.cpp.inc"
      >();
}
