//===- NormOps.cpp - Verifiers of the norm dialect ------------------------===//
#include "normc/Dialect/Norm/IR/NormOps.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace normc::norm;

/// Rows (dim 0) of a [rows, d] tensor must match the per-row statistics.
static LogicalResult verifyRowStats(Operation *op, RankedTensorType rows,
                                    RankedTensorType stats, StringRef what) {
  if (rows.getDimSize(0) != stats.getDimSize(0))
    return op->emitOpError()
           << what << " must have one element per row (" << rows.getDimSize(0)
           << "), got " << stats.getDimSize(0);
  return success();
}

static LogicalResult verifyFraction(Operation *op, double fraction) {
  if (!(fraction > 0.0 && fraction <= 1.0))
    return op->emitOpError() << "fraction must be in (0, 1], got " << fraction;
  return success();
}

//===----------------------------------------------------------------------===//
// SpecOp
//===----------------------------------------------------------------------===//

LogicalResult SpecOp::verify() {
  llvm::StringSet<> inputs, outputs;
  for (Operation &op : getBody().front()) {
    if (auto in = dyn_cast<InputOp>(op)) {
      if (!inputs.insert(in.getName()).second)
        return in.emitOpError() << "duplicate input '" << in.getName() << "'";
    } else if (auto param = dyn_cast<ParamOp>(op)) {
      if (!inputs.insert(param.getName()).second)
        return param.emitOpError()
               << "duplicate input '" << param.getName() << "'";
    } else if (auto out = dyn_cast<OutputOp>(op)) {
      if (!outputs.insert(out.getName()).second)
        return out.emitOpError()
               << "duplicate output '" << out.getName() << "'";
    }
  }
  if (outputs.empty())
    return emitOpError("must store at least one output");
  // All [rows, d] and [d] values must agree on d.
  std::optional<int64_t> cols;
  WalkResult result = getBody().walk([&](Operation *op) -> WalkResult {
    for (Type t : op->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(t);
      if (!tensor || (isa<MeanOp, MomentOp, RstdOp, FillOp, ConvertOp>(op)))
        continue;
      int64_t d = tensor.getDimSize(tensor.getRank() - 1);
      if (cols && *cols != d) {
        op->emitOpError() << "feature count " << d << " disagrees with earlier "
                          << *cols;
        return WalkResult::interrupt();
      }
      cols = d;
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

std::optional<int64_t> SpecOp::getCols() {
  for (auto in : getBody().getOps<InputOp>()) {
    int64_t d = in.getType().getDimSize(1);
    return ShapedType::isDynamic(d) ? std::nullopt : std::optional(d);
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Statistics
//===----------------------------------------------------------------------===//

LogicalResult MeanOp::verify() {
  if (failed(verifyFraction(*this, getFraction().convertToDouble())))
    return failure();
  return verifyRowStats(*this, getInput().getType(), getType(), "result");
}

LogicalResult MomentOp::verify() {
  if (failed(verifyFraction(*this, getFraction().convertToDouble())))
    return failure();
  if (getVariance() == Variance::unbiased && !getMean())
    return emitOpError("unbiased variance requires a center (mean) operand");
  if (getMean() && getMean().getType() != getType())
    return emitOpError("center type ")
           << getMean().getType() << " must match result type " << getType();
  return verifyRowStats(*this, getInput().getType(), getType(), "result");
}

LogicalResult RstdOp::verify() {
  double eps = getEpsilon().convertToDouble();
  if (!(eps >= 0.0) || std::isinf(eps))
    return emitOpError("epsilon must be finite and >= 0, got ") << eps;
  return success();
}

//===----------------------------------------------------------------------===//
// NormalizeOp
//===----------------------------------------------------------------------===//

Type NormalizeOp::getAccumulateType() {
  Value stat = getRstd() ? getRstd() : getMean();
  return cast<RankedTensorType>(stat.getType()).getElementType();
}

LogicalResult NormalizeOp::verify() {
  if (!getMean() && !getRstd())
    return emitOpError("needs a mean or an rstd: without either it would "
                       "not normalize");
  if (getMean() && getRstd() && getMean().getType() != getRstd().getType())
    return emitOpError("mean and rstd must have the same type");
  RankedTensorType in = getInput().getType();
  Value stat = getRstd() ? getRstd() : getMean();
  if (failed(verifyRowStats(*this, in, cast<RankedTensorType>(stat.getType()),
                            "statistics")))
    return failure();
  if (getType().getShape() != in.getShape())
    return emitOpError("result shape must match the input shape");
  for (Value param : {getGain(), getBias()}) {
    if (!param)
      continue;
    auto p = cast<RankedTensorType>(param.getType());
    if (p.getDimSize(0) != in.getDimSize(1))
      return emitOpError("per-feature parameter has ")
             << p.getDimSize(0) << " features, input has " << in.getDimSize(1);
  }
  if (!getGain() && getGainOffset().convertToDouble() != 0.0)
    return emitOpError("gain_offset needs a gain operand");
  return success();
}

LogicalResult FillOp::verify() {
  return verifyRowStats(*this, getRowsOf().getType(), getType(), "result");
}

LogicalResult ConvertOp::verify() {
  if (getInput().getType().getShape() != getType().getShape())
    return emitOpError("must keep the shape");
  return success();
}

#define GET_OP_CLASSES
#include "normc/Dialect/Norm/IR/NormOps.cpp.inc"
