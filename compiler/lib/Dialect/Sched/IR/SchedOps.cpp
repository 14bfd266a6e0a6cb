//===- SchedOps.cpp - Verifiers of the sched dialect ----------------------===//
#include "normc/Dialect/Sched/IR/SchedOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace normc::sched;

Type normc::sched::getElementType(Type schedType) {
  return llvm::TypeSwitch<Type, Type>(schedType)
      .Case<RowsType, FeaturesType, StatsType, RowType>(
          [](auto t) { return t.getElementType(); })
      .Default([](Type) { return Type(); });
}

static bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

LogicalResult ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t rowsPerBlock, int64_t threadsPerRow,
                                   int64_t vectorWidth, RowStorage rowStorage) {
  if (!isPowerOfTwo(threadsPerRow) || threadsPerRow > 1024)
    return emitError() << "threads_per_row must be a power of two in [1, "
                          "1024], got "
                       << threadsPerRow;
  if (rowsPerBlock < 1 || rowsPerBlock * threadsPerRow > 1024)
    return emitError() << "rows_per_block * threads_per_row must be in [1, "
                          "1024], got "
                       << rowsPerBlock << " * " << threadsPerRow;
  // Warp shuffles use the full-warp mask: every warp must be complete.
  if ((rowsPerBlock * threadsPerRow) % 32 != 0)
    return emitError() << "a block must hold whole warps, got "
                       << rowsPerBlock * threadsPerRow << " threads";
  if (!isPowerOfTwo(vectorWidth) || vectorWidth > 16)
    return emitError() << "vector_width must be a power of two in [1, 16], "
                          "got "
                       << vectorWidth;
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

LogicalResult KernelOp::verify() {
  llvm::StringSet<> names;
  for (auto buffer : getBody().getOps<BufferOp>())
    if (!names.insert(buffer.getName()).second)
      return buffer.emitOpError()
             << "duplicate buffer '" << buffer.getName() << "'";
  if (getCols() && *getCols() < 1)
    return emitOpError("cols must be positive, got ") << *getCols();
  ScheduleAttr schedule = getScheduleAttr();
  if (!schedule)
    return success();
  if (schedule.getRowStorage() == RowStorage::registers && !getCols())
    return emitOpError("row_storage = registers needs cols fixed at compile "
                       "time");
  // Each access moves vector_width elements: keep it within one 128-bit
  // load for every buffer the kernel touches.
  for (auto buffer : getBody().getOps<BufferOp>()) {
    if (isa<StatsType>(buffer.getType()))
      continue;
    Type element = getElementType(buffer.getType());
    if (schedule.getVectorWidth() * element.getIntOrFloatBitWidth() > 128)
      return emitOpError("vector_width ")
             << schedule.getVectorWidth() << " exceeds 128 bits for buffer '"
             << buffer.getName() << "' of " << element;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Row ops
//===----------------------------------------------------------------------===//

LogicalResult StoreRowOp::verify() {
  if (getValue().getType().getElementType() !=
      getDest().getType().getElementType())
    return emitOpError("row of ") << getValue().getType().getElementType()
                                  << " cannot be stored into a buffer of "
                                  << getDest().getType().getElementType();
  return success();
}

LogicalResult FeatureCountOp::verify() {
  double f = getFraction().convertToDouble();
  if (!(f > 0.0 && f <= 1.0))
    return emitOpError("fraction must be in (0, 1], got ") << f;
  return success();
}

LogicalResult ReduceOp::verify() {
  if (getCenter() && getKind() != ReduceKind::sum_squares)
    return emitOpError("only sum_squares takes a center");
  if (getCenter() && getCenter().getType() != getType())
    return emitOpError("center must have the result type");
  return success();
}

LogicalResult AffineRowOp::verify() {
  if (!getMean() && !getRstd())
    return emitOpError("needs a mean or an rstd");
  if (getMean() && getRstd() && getMean().getType() != getRstd().getType())
    return emitOpError("mean and rstd must have the same type");
  if (!getGain() && getGainOffset().convertToDouble() != 0.0)
    return emitOpError("gain_offset needs a gain operand");
  return success();
}

LogicalResult StoreStatOp::verify() {
  if (getValue().getType() != getDest().getType().getElementType())
    return emitOpError("value of type ")
           << getValue().getType() << " cannot be stored into stats of "
           << getDest().getType().getElementType();
  return success();
}

#define GET_OP_CLASSES
#include "normc/Dialect/Sched/IR/SchedOps.cpp.inc"
