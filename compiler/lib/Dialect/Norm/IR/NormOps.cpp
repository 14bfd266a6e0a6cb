//===- NormOps.cpp - Verifiers of the norm dialect ------------------------===//
#include "normc/Dialect/Norm/IR/NormOps.h"
#include "normc/Dialect/ElementTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
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

/// Whether `op` computes per-row values, whose one dimension is the rows
/// (or one value for all rows: a scalar parameter).
static bool isPerRow(Operation *op) {
  if (isa<MeanOp, MomentOp, RstdOp, FillOp, ConvertOp, ReduceOp>(op))
    return true;
  if (auto param = dyn_cast<ParamOp>(op))
    return param.getScalar();
  if (auto sum = dyn_cast<SumRowsOp>(op)) // a scalar's gradient
    return cast<RankedTensorType>(sum.getInput().getType()).getRank() == 1;
  if (auto amax = dyn_cast<AmaxOp>(op))
    return !amax.getGroup();
  if (auto map = dyn_cast<MapOp>(op))
    return map.isPerRow();
  if (auto in = dyn_cast<InputOp>(op))
    return in.getTensorType().getRank() == 1;
  return false;
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
  std::optional<int64_t> first;
  WalkResult result = getBody().walk([&](Operation *op) -> WalkResult {
    for (Value v : op->getResults()) {
      auto tensor = dyn_cast<RankedTensorType>(v.getType());
      if (!tensor || isPerRow(op) || groupSizeOf(v))
        continue;
      int64_t d = tensor.getDimSize(tensor.getRank() - 1);
      if (first && *first != d) {
        op->emitOpError() << "feature count " << d << " disagrees with earlier "
                          << *first;
        return WalkResult::interrupt();
      }
      first = d;
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

std::optional<int64_t> SpecOp::getD() {
  for (auto in : getBody().getOps<InputOp>()) {
    if (in.getTensorType().getRank() != 2)
      continue;
    int64_t d = in.getTensorType().getDimSize(1);
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
  return cast<RankedTensorType>(stat ? stat.getType() : getInput().getType())
      .getElementType();
}

LogicalResult NormalizeOp::verify() {
  RankedTensorType in = getInput().getType();
  if (!getMean() && !getRstd() && !getInput().getDefiningOp<MapOp>())
    return emitOpError("needs a mean or an rstd, or an input a norm.map "
                       "normalized: a row it reads as it is would not be "
                       "normalized");
  if (getMean() && getRstd() && getMean().getType() != getRstd().getType())
    return emitOpError("mean and rstd must have the same type");
  if (Value stat = getRstd() ? getRstd() : getMean())
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

/// [rows, ceil(d / group)] for a [rows, d] `in`; d may be dynamic.
static RankedTensorType groupsShape(RankedTensorType in, int64_t group) {
  int64_t d = in.getDimSize(1);
  int64_t groups =
      ShapedType::isDynamic(d) ? ShapedType::kDynamic : (d + group - 1) / group;
  return RankedTensorType::get({in.getDimSize(0), groups}, in.getElementType());
}

/// A per-group value of `in` with groups of `group` features.
static LogicalResult verifyGroups(Operation *op, RankedTensorType in,
                                  Type groups, int64_t group, StringRef what) {
  if (group < normc::norm::kMinGroup || group > normc::norm::kMaxGroup ||
      (group & (group - 1)))
    return op->emitOpError("group must be a power of two in [")
           << normc::norm::kMinGroup << ", " << normc::norm::kMaxGroup
           << "], got " << group;
  RankedTensorType want = groupsShape(in, group);
  auto got = dyn_cast<RankedTensorType>(groups);
  if (!got || got.getShape() != want.getShape())
    return op->emitOpError()
           << what << " must be " << want << " (a value per row and group of "
           << group << " features), got " << groups;
  return success();
}

LogicalResult AmaxOp::verify() {
  RankedTensorType in = getInput().getType();
  auto result = cast<RankedTensorType>(getType());
  if (in.getElementType() != result.getElementType())
    return emitOpError("result must have the operand's element type ")
           << in.getElementType();
  if (auto group = getGroup())
    return verifyGroups(*this, in, result, *group, "result");
  if (result.getRank() != 1)
    return emitOpError("result must be per row without a group");
  return verifyRowStats(*this, in, result, "result");
}

LogicalResult QuantizeOp::verify() {
  RankedTensorType in = getInput().getType();
  auto scale = cast<RankedTensorType>(getScale().getType());
  if (scale.getElementType() != in.getElementType())
    return emitOpError("scale must have the operand's element type ")
           << in.getElementType() << ", got " << scale.getElementType();
  if (getType().getShape() != in.getShape())
    return emitOpError("result shape must match the input shape");
  if (auto group = getGroup())
    return verifyGroups(*this, in, scale, *group, "a block scale");
  if (scale.getRank() != 1)
    return emitOpError("a [rows, groups] scale needs group(G)");
  if (isStatic() && scale.getDimSize(0) != 1)
    return emitOpError("a static scale has one element, got ")
           << scale.getDimSize(0);
  if (!isStatic() &&
      failed(verifyRowStats(*this, in, scale, "a per-row scale")))
    return failure();
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

//===----------------------------------------------------------------------===//
// Generic ops
//===----------------------------------------------------------------------===//

LogicalResult MapOp::verify() {
  RankedTensorType result = getTensorType();
  if (isPerRow() && !getInputs().empty())
    return emitOpError("with [rows, d] or [d] operands must have a [rows, d] "
                       "result");
  if (isPerRow() && getFraction())
    return emitOpError("fraction needs a [rows, d] result");
  if (auto fraction = getFraction())
    if (failed(verifyFraction(*this, fraction->convertToDouble())))
      return failure();
  for (Value stat : getStats())
    if (!stat.getDefiningOp() || !::isPerRow(stat.getDefiningOp()))
      return emitOpError("stats operands must be per-row values");
  int64_t d = result.getDimSize(result.getRank() - 1);
  for (Value input : getInputs()) {
    if (input.getDefiningOp() && ::isPerRow(input.getDefiningOp()))
      return emitOpError("a per-row value must be passed in stats(...)");
    auto t = cast<RankedTensorType>(input.getType());
    if (!isPerRow() && t.getDimSize(t.getRank() - 1) != d)
      return emitOpError("operand with ")
             << t.getDimSize(t.getRank() - 1) << " features, result has " << d;
  }
  Block &body = getBody().front();
  SmallVector<Type> elements;
  for (Value v : getOperands())
    elements.push_back(cast<RankedTensorType>(v.getType()).getElementType());
  if (body.getArgumentTypes() != ArrayRef<Type>(elements))
    return emitOpError("body arguments must be the operands' element types");
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValue().getType() != result.getElementType())
    return emitOpError("body yields ")
           << yield.getValue().getType() << ", result elements are "
           << result.getElementType();
  for (Operation &op : body.without_terminator()) {
    bool scalar =
        isa<arith::ArithDialect, math::MathDialect>(op.getDialect()) ||
        isa<CountOp>(op);
    if (!scalar || op.getNumRegions() != 0)
      return op.emitOpError("cannot be part of a norm.map body (arith and "
                            "math scalar ops and norm.count only)");
    // The lowering and the derivative clone a body from its arguments.
    for (Value operand : op.getOperands())
      if (operand.getParentBlock() != &body)
        return op.emitOpError("uses a value defined outside its norm.map "
                              "body; a body reads only its arguments");
  }
  return success();
}

LogicalResult CountOp::verify() {
  return verifyFraction(*this, getFraction().convertToDouble());
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyFraction(*this, getFraction().convertToDouble())))
    return failure();
  if (getInput().getType().getElementType() != getType().getElementType())
    return emitOpError("sums in the operand's element type; result must be ")
           << getInput().getType().getElementType();
  return verifyRowStats(*this, getInput().getType(), getType(), "result");
}

LogicalResult ParamOp::verify() {
  auto type = cast<RankedTensorType>(getType());
  if (getScalar() && type.getDimSize(0) != 1)
    return emitOpError("is scalar, so its type must be ")
           << RankedTensorType::get({1}, type.getElementType()) << ", got "
           << type;
  return success();
}

LogicalResult SumRowsOp::verify() {
  // The sum is finished by a kernel of its own, which stores it.
  if (!getResult().hasOneUse() ||
      !isa<OutputOp>(*getResult().getUsers().begin()))
    return emitOpError("result must be stored once (norm.output) and not "
                       "used otherwise: the sum over rows is finished by a "
                       "later kernel");
  auto input = cast<RankedTensorType>(getInput().getType());
  if (input.getRank() == 1) {
    if (getType().getDimSize(0) != 1)
      return emitOpError("of a per-row operand is one value, a ")
             << RankedTensorType::get({1}, getType().getElementType())
             << "; got " << getType();
    return success();
  }
  if (input.getDimSize(1) != getType().getDimSize(0))
    return emitOpError("result has ")
           << getType().getDimSize(0) << " features, operand has "
           << input.getDimSize(1);
  return success();
}

std::optional<int64_t> normc::norm::groupSizeOf(Value value) {
  Operation *op = value.getDefiningOp();
  if (auto amax = dyn_cast_or_null<AmaxOp>(op))
    if (auto group = amax.getGroup())
      return static_cast<int64_t>(*group);
  if (auto map = dyn_cast_or_null<MapOp>(op))
    for (Value input : map.getInputs())
      if (std::optional<int64_t> group = groupSizeOf(input))
        return group;
  return std::nullopt;
}

double normc::norm::largestFinite(Type type) {
  return findElementType(type)->largestFinite();
}

Value normc::norm::buildConvert(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  unsigned fromBits = from.getIntOrFloatBitWidth(),
           toBits = to.getIntOrFloatBitWidth();
  if (fromBits == toBits) // f16 <-> bf16 goes through f32 exactly
    return buildConvert(b, loc, buildConvert(b, loc, v, b.getF32Type()), to);
  if (toBits < fromBits)
    return arith::TruncFOp::create(b, loc, to, v);
  return arith::ExtFOp::create(b, loc, to, v);
}

#include "normc/Dialect/Norm/IR/VjpInterface.cpp.inc"

#define GET_OP_CLASSES
#include "normc/Dialect/Norm/IR/NormOps.cpp.inc"
