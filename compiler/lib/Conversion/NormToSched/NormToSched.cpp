//===- NormToSched.cpp - Lower norm.spec to sched.kernel ------------------===//
//
// The spec is a dataflow of whole tensors; the kernel is the program one
// group of threads runs for one row. The lowering walks the spec in order and
// maps each tensor value to the row value, per-row scalar or buffer that
// stands for it inside the kernel.
//
//===----------------------------------------------------------------------===//
#include "normc/Abi/ReservedNames.h"
#include "normc/Conversion/Passes.h"
#include "normc/Dialect/Norm/IR/NormOps.h"
#include "normc/Dialect/Sched/IR/SchedOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

#include <map>

namespace normc {
#define GEN_PASS_DEF_CONVERTNORMTOSCHED
#include "normc/Conversion/Passes.h.inc"
} // namespace normc

using namespace mlir;
using namespace normc;

namespace {

/// The accumulate type of a spec: the element type of its statistics. (A
/// sum over rows may run in another: its operand's.)
FailureOr<Type> findAccumulateType(norm::SpecOp spec) {
  Type acc;
  auto merge = [&](Operation *op, Type t) -> LogicalResult {
    if (acc && acc != t)
      return op->emitOpError("mixes accumulate types ")
             << acc << " and " << t << "; one kernel has one";
    acc = t;
    return success();
  };
  for (Operation &op : spec.getBody().front()) {
    LogicalResult ok = success();
    if (auto add = dyn_cast<norm::ResidualAddOp>(op))
      ok = merge(&op, add.getAccumulate());
    else if (isa<norm::MeanOp, norm::MomentOp, norm::ReduceOp>(op))
      ok = merge(
          &op,
          cast<RankedTensorType>(op.getResult(0).getType()).getElementType());
    else if (auto normalize = dyn_cast<norm::NormalizeOp>(op))
      ok = merge(&op, normalize.getAccumulateType());
    if (failed(ok))
      return failure();
  }
  if (!acc)
    return spec.emitOpError("computes neither statistics nor a normalization");
  return acc;
}

/// A [1] input: one value for every row (an fp8 output's static scale).
bool isOneForAllRows(norm::InputOp in) {
  return in.getTensorType().getRank() == 1 &&
         !ShapedType::isDynamic(in.getTensorType().getDimSize(0));
}

class SpecLowering {
public:
  SpecLowering(norm::SpecOp spec, Type acc)
      : spec(spec), acc(acc), b(spec.getContext()) {}

  LogicalResult lower();

private:
  Value featureCount(Location loc, APFloat fraction);
  Value countAsAccumulate(Location loc, Value count);
  Value constant(Location loc, double value) {
    return arith::ConstantOp::create(b, loc, acc, b.getFloatAttr(acc, value));
  }
  /// Lowers one op of the spec's body, by its kind.
  LogicalResult lowerOp(Operation &op);
  LogicalResult lower(norm::InputOp op);
  LogicalResult lower(norm::MapOp op);
  LogicalResult lower(norm::ReduceOp op);
  LogicalResult lower(norm::SumRowsOp op);
  LogicalResult lower(norm::ResidualAddOp op);
  LogicalResult lower(norm::MeanOp op);
  LogicalResult lower(norm::MomentOp op);
  LogicalResult lower(norm::RstdOp op);
  LogicalResult lower(norm::NormalizeOp op);
  LogicalResult lower(norm::AmaxOp op);
  LogicalResult lower(norm::QuantizeOp op);
  LogicalResult lower(norm::FillOp op);
  LogicalResult lower(norm::ConvertOp op);
  /// The row type of a [rows, d] tensor type's elements.
  sched::RowType rowTypeOf(Type tensor) {
    return sched::RowType::get(b.getContext(),
                               cast<RankedTensorType>(tensor).getElementType());
  }
  Value convert(Location loc, Value v, Type to) {
    return norm::buildConvert(b, loc, v, to);
  }
  /// The kernel after this one: each per-feature sum over rows, from the
  /// partials this kernel writes.
  void buildFinishKernel(sched::KernelOp kernel);
  using BodyBuilder = llvm::function_ref<Value(ValueRange features)>;
  /// A sched.map or sched.reduce of `inputs` whose body `build` fills in.
  template <typename OpT, typename... Extra>
  OpT withBody(Location loc, Type result, ValueRange inputs, BodyBuilder build,
               Extra... extra);
  void storeOutput(norm::OutputOp out, Value buffer);

  norm::SpecOp spec;
  Type acc;
  OpBuilder b;
  IRMapping map;
  std::map<double, Value> counts; // by fraction
  /// Per-feature sums over rows: their partials buffer and output.
  SmallVector<std::pair<Value, norm::OutputOp>> rowSums;
};

} // namespace

Value SpecLowering::featureCount(Location loc, APFloat fraction) {
  Value &count = counts[fraction.convertToDouble()];
  if (!count)
    count = sched::FeatureCountOp::create(
        b, loc, b.getI32Type(), b.getF64FloatAttr(fraction.convertToDouble()));
  return count;
}

template <typename OpT, typename... Extra>
OpT SpecLowering::withBody(Location loc, Type result, ValueRange inputs,
                           BodyBuilder build, Extra... extra) {
  auto op = OpT::create(b, loc, result, inputs, extra...);
  Block &body = op.getBody().emplaceBlock();
  for (Value input : inputs)
    body.addArgument(sched::getElementType(input.getType()), loc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&body);
  sched::YieldOp::create(b, loc, build(body.getArguments()));
  return op;
}

Value SpecLowering::countAsAccumulate(Location loc, Value count) {
  return arith::SIToFPOp::create(b, loc, acc, count);
}

LogicalResult SpecLowering::lower() {
  MLIRContext *ctx = spec.getContext();
  b.setInsertionPoint(spec);
  std::optional<int64_t> d = spec.getD();
  auto kernel =
      sched::KernelOp::create(b, spec.getLoc(), spec.getSymNameAttr(),
                              d ? b.getI64IntegerAttr(*d) : IntegerAttr(),
                              TypeAttr::get(acc), sched::ScheduleAttr());
  kernel.setReproducible(spec.getReproducible());
  b.setInsertionPointToStart(&kernel.getBody().emplaceBlock());

  // Buffers first, in argument order: what is read, then what is written.
  Block &body = spec.getBody().front();
  llvm::StringMap<Value> outputs;
  for (Operation &op : body) {
    if (auto in = dyn_cast<norm::InputOp>(op)) {
      Type element = in.getTensorType().getElementType();
      Type type = in.getTensorType().getRank() == 2
                      ? Type(sched::RowsType::get(ctx, element))
                  : isOneForAllRows(in)
                      ? Type(sched::ScalarType::get(ctx, element))
                      : Type(sched::StatsType::get(ctx, element));
      Value buffer =
          sched::BufferOp::create(b, in.getLoc(), type, in.getName());
      map.map(in.getResult(), buffer);
    } else if (auto param = dyn_cast<norm::ParamOp>(op)) {
      Type element = param.getType().getElementType();
      Type type = param.getScalar()
                      ? Type(sched::ScalarType::get(ctx, element))
                      : Type(sched::FeaturesType::get(ctx, element));
      map.map(param.getResult(), sched::BufferOp::create(
                                     b, param.getLoc(), type, param.getName()));
    }
  }
  for (auto out : body.getOps<norm::OutputOp>()) {
    if (auto sum = out.getValue().getDefiningOp<norm::SumRowsOp>()) {
      // Written by the next kernel; this one writes per-block partials.
      Type element =
          cast<RankedTensorType>(sum.getInput().getType()).getElementType();
      if (!rowSums.empty() &&
          sched::getElementType(rowSums.front().first.getType()) != element)
        return sum.emitOpError("sums over rows in ")
               << element << ", but an earlier norm.sum_rows in "
               << sched::getElementType(rowSums.front().first.getType())
               << "; the kernel that finishes them has one accumulate type";
      auto type = sched::PartialsType::get(ctx, element);
      Value partials = sched::BufferOp::create(
          b, out.getLoc(), type, (out.getName() + "_partials").str());
      rowSums.push_back({partials, out});
      map.map(sum.getResult(), partials);
      continue;
    }
    auto tensor = cast<RankedTensorType>(out.getValue().getType());
    Type element = tensor.getElementType();
    Type type = norm::groupSizeOf(out.getValue())
                    ? Type(sched::GroupsType::get(ctx, element))
                : tensor.getRank() == 2
                    ? Type(sched::RowsType::get(ctx, element))
                    : Type(sched::StatsType::get(ctx, element));
    outputs[out.getName()] =
        sched::BufferOp::create(b, out.getLoc(), type, out.getName());
  }

  // Outputs are stored as soon as they are computed: later passes over the
  // row then read the stored value (docs/spec.md: everything after the
  // residual add reads the rounded h), which also keeps in-place use correct
  // when an output aliases an input.
  for (Operation &op : body) {
    if (isa<norm::OutputOp>(op))
      continue;
    if (failed(lowerOp(op)))
      return failure();
    for (Value result : op.getResults())
      for (Operation *user : result.getUsers())
        if (auto out = dyn_cast<norm::OutputOp>(user))
          if (Value buffer = outputs.lookup(out.getName()))
            storeOutput(out, buffer);
  }
  if (!rowSums.empty())
    buildFinishKernel(kernel);
  spec.erase();
  return success();
}

void SpecLowering::buildFinishKernel(sched::KernelOp kernel) {
  MLIRContext *ctx = b.getContext();
  b.setInsertionPointAfter(kernel);
  // It accumulates in the type of the sums over rows.
  Type rowsAcc = sched::getElementType(rowSums.front().first.getType());
  auto finish = sched::KernelOp::create(
      b, kernel.getLoc(),
      b.getStringAttr(kernel.getSymName() + normc::kFinishSuffix),
      kernel.getDAttr(), TypeAttr::get(rowsAcc),
      sched::ScheduleAttr::get(ctx, normc::Schedule::forPartialSums()));
  finish.setLaunchOrder(kernel.getLaunchOrder() + 1);
  b.setInsertionPointToStart(&finish.getBody().emplaceBlock());
  // Buffers in ABI order: what is read, then what is written.
  SmallVector<Value> partials, dests;
  for (auto &[written, out] : rowSums)
    partials.push_back(sched::BufferOp::create(
        b, out.getLoc(), written.getType(),
        written.getDefiningOp<sched::BufferOp>().getName()));
  for (auto &[written, out] : rowSums) {
    Type element =
        cast<RankedTensorType>(out.getValue().getType()).getElementType();
    // A scalar parameter's gradient: the sum of a per-row value.
    bool scalar = cast<RankedTensorType>(out.getValue()
                                             .getDefiningOp<norm::SumRowsOp>()
                                             .getInput()
                                             .getType())
                      .getRank() == 1;
    Type type = scalar ? Type(sched::ScalarType::get(ctx, element))
                       : Type(sched::FeaturesType::get(ctx, element));
    dests.push_back(
        sched::BufferOp::create(b, out.getLoc(), type, out.getName()));
  }
  // There may be as many partial rows as rows: compensated in f32, as the
  // row reductions are.
  for (auto [from, dest] : llvm::zip(partials, dests))
    sched::SumPartialsOp::create(b, kernel.getLoc(), from, dest,
                                 /*compensated=*/rowsAcc.isF32());
}

void SpecLowering::storeOutput(norm::OutputOp out, Value buffer) {
  Value value = map.lookup(out.getValue());
  if (std::optional<int64_t> group = norm::groupSizeOf(out.getValue()))
    sched::StoreGroupsOp::create(b, out.getLoc(), value, buffer,
                                 b.getI64IntegerAttr(*group));
  else if (isa<sched::RowsType>(buffer.getType()))
    sched::StoreRowOp::create(b, out.getLoc(), value, buffer);
  else
    sched::StoreStatOp::create(b, out.getLoc(), value, buffer);
}

LogicalResult SpecLowering::lowerOp(Operation &op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case<norm::InputOp, norm::MapOp, norm::ReduceOp, norm::SumRowsOp,
            norm::ResidualAddOp, norm::MeanOp, norm::MomentOp, norm::RstdOp,
            norm::NormalizeOp, norm::AmaxOp, norm::QuantizeOp, norm::FillOp,
            norm::ConvertOp>([&](auto op) { return lower(op); })
      .Case<norm::ParamOp>([&](norm::ParamOp param) {
        // Per-feature parameters stay buffers, read per chunk; a scalar is
        // loaded once.
        if (param.getScalar())
          map.map(param.getResult(),
                  sched::LoadScalarOp::create(b, param.getLoc(),
                                              param.getType().getElementType(),
                                              map.lookup(param.getResult())));
        return success();
      })
      .Default([](Operation *op) {
        return op->emitOpError("has no lowering to the sched dialect");
      });
}

LogicalResult SpecLowering::lower(norm::InputOp in) {
  Location loc = in.getLoc();
  // Loaded where it is defined.
  Value buffer = map.lookup(in.getResult());
  if (isOneForAllRows(in))
    map.map(in.getResult(),
            sched::LoadScalarOp::create(
                b, loc, in.getTensorType().getElementType(), buffer));
  else if (in.getTensorType().getRank() == 1)
    map.map(in.getResult(),
            sched::LoadStatOp::create(
                b, loc, in.getTensorType().getElementType(), buffer));
  else
    map.map(in.getResult(),
            sched::LoadRowOp::create(b, loc, rowTypeOf(in.getType()), buffer));
  return success();
}

LogicalResult SpecLowering::lower(norm::ReduceOp reduce) {
  Location loc = reduce.getLoc();
  Value count = featureCount(loc, reduce.getFraction());
  map.map(reduce.getResult(),
          withBody<sched::ReduceOp>(
              loc, acc, {map.lookup(reduce.getInput())},
              [&](ValueRange f) { return convert(loc, f[0], acc); }, count));
  return success();
}

LogicalResult SpecLowering::lower(norm::SumRowsOp sum) {
  Location loc = sum.getLoc();
  Value partials = map.lookup(sum.getResult());
  if (cast<RankedTensorType>(sum.getInput().getType()).getRank() == 1) {
    sched::ReduceStatRowsOp::create(b, loc, map.lookup(sum.getInput()),
                                    partials);
    return success();
  }
  auto rowsSum = sched::ReduceRowsOp::create(
      b, loc, ValueRange{map.lookup(sum.getInput())}, partials);
  Block &body = rowsSum.getBody().emplaceBlock();
  Value term = body.addArgument(
      cast<RankedTensorType>(sum.getInput().getType()).getElementType(), loc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&body);
  sched::YieldOp::create(b, loc, term);
  return success();
}

LogicalResult SpecLowering::lower(norm::ResidualAddOp add) {
  Location loc = add.getLoc();
  Value x = map.lookup(add.getX());
  Value residual = map.lookup(add.getResidual());
  // Rounded to the residual stream's type.
  sched::RowType result = rowTypeOf(add.getType());
  auto body = [&](ValueRange f) {
    Value lhs = convert(loc, f[0], acc);
    Value rhs = convert(loc, f[1], acc);
    Value sum = arith::AddFOp::create(b, loc, lhs, rhs);
    return convert(loc, sum, result.getElementType());
  };
  map.map(add.getResult(),
          withBody<sched::MapOp>(loc, result, {x, residual}, body, Value()));
  return success();
}

LogicalResult SpecLowering::lower(norm::MeanOp mean) {
  Location loc = mean.getLoc();
  Value count = featureCount(loc, mean.getFraction());
  Value input = map.lookup(mean.getInput());
  Value sum = withBody<sched::ReduceOp>(
      loc, acc, {input}, [&](ValueRange f) { return convert(loc, f[0], acc); },
      count);
  Value divisor = countAsAccumulate(loc, count);
  Value m = arith::DivFOp::create(b, loc, sum, divisor);
  if (mean.getCorrected()) {
    if (!acc.isF32() && !acc.isF64())
      return mean.emitOpError("corrected needs an f32 or f64 accumulate type");
    // The second pass: the mean of the deviations from c, the first mean
    // with a third of its significant bits (bf16's 8 for f32, f32's 24 for
    // f64). Each h - c is then exact unless |h| is far above |c|, so the
    // deviations' sum has only the sum's own rounding: small where the
    // mean is large against the spread, and no larger than the first pass's
    // where it is not (docs/numerics.md).
    Type coarse = acc.isF64() ? Type(b.getF32Type()) : b.getBF16Type();
    Value c = convert(loc, convert(loc, m, coarse), acc);
    Value deviations = withBody<sched::ReduceOp>(
        loc, acc, {input},
        [&](ValueRange f) {
          return Value(
              arith::SubFOp::create(b, loc, convert(loc, f[0], acc), c));
        },
        count);
    m = arith::AddFOp::create(
        b, loc, c, arith::DivFOp::create(b, loc, deviations, divisor));
  }
  map.map(mean.getResult(), m);
  return success();
}

LogicalResult SpecLowering::lower(norm::MomentOp moment) {
  Location loc = moment.getLoc();
  Value count = featureCount(loc, moment.getFraction());
  Value center = moment.getMean() ? map.lookup(moment.getMean()) : Value();
  Value sum = withBody<sched::ReduceOp>(
      loc, acc, {map.lookup(moment.getInput())},
      [&](ValueRange f) {
        Value t = convert(loc, f[0], acc);
        if (center)
          t = arith::SubFOp::create(b, loc, t, center);
        return Value(arith::MulFOp::create(b, loc, t, t));
      },
      count);
  Value divisor = count;
  if (moment.getVariance() == norm::Variance::unbiased)
    divisor = arith::SubIOp::create(
        b, loc, count, arith::ConstantIntOp::create(b, loc, 1, 32));
  map.map(moment.getResult(),
          arith::DivFOp::create(b, loc, sum, countAsAccumulate(loc, divisor)));
  return success();
}

LogicalResult SpecLowering::lower(norm::RstdOp rstd) {
  Location loc = rstd.getLoc();
  Value moment = map.lookup(rstd.getMoment());
  Value eps = constant(loc, rstd.getEpsilon().convertToDouble());
  Value r;
  if (rstd.getPlacement() == norm::EpsilonPlacement::inside_sqrt) {
    r = math::RsqrtOp::create(b, loc,
                              arith::AddFOp::create(b, loc, moment, eps));
  } else {
    // One op per statement: the order of a call's arguments is the
    // compiler's, and the IR must not depend on it.
    Value root = math::SqrtOp::create(b, loc, moment);
    Value denominator = arith::AddFOp::create(b, loc, root, eps);
    r = arith::DivFOp::create(b, loc, constant(loc, 1.0), denominator);
  }
  map.map(rstd.getResult(), r);
  return success();
}

LogicalResult SpecLowering::lower(norm::NormalizeOp normalize) {
  Location loc = normalize.getLoc();
  // y = (h - mean) * rstd * (gain_offset + gain) + bias, in that order.
  auto lookupOrNull = [&](Value v) { return v ? map.lookup(v) : Value(); };
  Value mean = lookupOrNull(normalize.getMean());
  Value rstd = lookupOrNull(normalize.getRstd());
  SmallVector<Value> inputs = {map.lookup(normalize.getInput())};
  if (normalize.getGain())
    inputs.push_back(map.lookup(normalize.getGain()));
  if (normalize.getBias())
    inputs.push_back(map.lookup(normalize.getBias()));
  auto result = rowTypeOf(normalize.getType());
  double offset = normalize.getGainOffset().convertToDouble();
  auto y = withBody<sched::MapOp>(
      loc, result, inputs,
      [&](ValueRange f) {
        Value t = convert(loc, f[0], acc);
        if (mean)
          t = arith::SubFOp::create(b, loc, t, mean);
        if (rstd)
          t = arith::MulFOp::create(b, loc, t, rstd);
        if (auto rounded = normalize.getNormalizedType())
          t = convert(loc, convert(loc, t, *rounded), acc);
        unsigned next = 1;
        if (normalize.getGain()) {
          Value g = convert(loc, f[next++], acc);
          if (offset != 0.0)
            g = arith::AddFOp::create(b, loc, constant(loc, offset), g);
          t = arith::MulFOp::create(b, loc, t, g);
        }
        if (normalize.getBias())
          t = arith::AddFOp::create(b, loc, t, convert(loc, f[next], acc));
        return convert(loc, t, result.getElementType());
      },
      Value());
  // y quantized to fp8 is read twice (its amax, its quotients): computing
  // it again from the kept input costs less than keeping it, in the
  // accumulate type, as well.
  if (llvm::any_of(normalize->getUsers(), llvm::IsaPred<norm::AmaxOp>))
    y.setRecompute(true);
  map.map(normalize.getResult(), y);
  return success();
}

LogicalResult SpecLowering::lower(norm::AmaxOp amax) {
  Location loc = amax.getLoc();
  MLIRContext *ctx = b.getContext();
  Value y = map.lookup(amax.getInput());
  auto magnitude = [&](ValueRange f) {
    return Value(math::AbsFOp::create(b, loc, convert(loc, f[0], acc)));
  };
  // Per group: a row whose features hold their group's amax.
  if (auto group = amax.getGroup())
    map.map(amax.getResult(), withBody<sched::GroupMaxOp>(
                                  loc, sched::RowType::get(ctx, acc), {y},
                                  magnitude, b.getI64IntegerAttr(*group)));
  else
    map.map(amax.getResult(),
            withBody<sched::ReduceOp>(loc, acc, {y}, magnitude,
                                      featureCount(loc, APFloat(1.0)),
                                      sched::Combine::max));
  return success();
}

LogicalResult SpecLowering::lower(norm::QuantizeOp quantize) {
  Location loc = quantize.getLoc();
  Value scale = map.lookup(quantize.getScale());
  Type format = quantize.getType().getElementType();
  double max = norm::largestFinite(format);
  // Block scales are a row operand; the others a scalar from above.
  bool perGroup = quantize.getGroup().has_value();
  SmallVector<Value> inputs = {map.lookup(quantize.getInput())};
  if (perGroup)
    inputs.push_back(scale);
  map.map(quantize.getResult(),
          withBody<sched::MapOp>(
              loc, rowTypeOf(quantize.getType()), inputs,
              [&](ValueRange f) -> Value {
                Value t = arith::DivFOp::create(b, loc, convert(loc, f[0], acc),
                                                perGroup ? f[1] : scale);
                if (isa<IntegerType>(format)) {
                  // An integer: NaN is 0, the clamp is to [-2^(n-1),
                  // 2^(n-1) - 1], then the rounding to nearest even gives
                  // the integral value the conversion keeps exactly.
                  Value zero = constant(loc, 0.0);
                  Value number = arith::CmpFOp::create(
                      b, loc, arith::CmpFPredicate::OEQ, t, t);
                  t = arith::SelectOp::create(b, loc, number, t, zero);
                  t = arith::MaximumFOp::create(b, loc, t,
                                                constant(loc, -max - 1));
                  t = arith::MinimumFOp::create(b, loc, t, constant(loc, max));
                  t = math::RoundEvenOp::create(b, loc, t);
                  return arith::FPToSIOp::create(b, loc, format, t);
                }
                // Saturation is a clamp (NaN passes it), so the rounding
                // itself never overflows.
                t = arith::MaximumFOp::create(b, loc, t, constant(loc, -max));
                t = arith::MinimumFOp::create(b, loc, t, constant(loc, max));
                return arith::TruncFOp::create(b, loc, format, t);
              },
              Value()));
  return success();
}

LogicalResult SpecLowering::lower(norm::FillOp fill) {
  Location loc = fill.getLoc();
  map.map(fill.getResult(), constant(loc, fill.getValue().convertToDouble()));
  return success();
}

LogicalResult SpecLowering::lower(norm::ConvertOp convert) {
  Location loc = convert.getLoc();
  map.map(convert.getResult(),
          this->convert(loc, map.lookup(convert.getInput()),
                        convert.getType().getElementType()));
  return success();
}

LogicalResult SpecLowering::lower(norm::MapOp op) {
  Location loc = op.getLoc();
  Block &from = op.getBody().front();
  // The counts its body uses are kernel-level scalars.
  IRMapping body;
  for (auto count : from.getOps<norm::CountOp>())
    body.map(
        count.getResult(),
        convert(loc,
                countAsAccumulate(loc, featureCount(loc, count.getFraction())),
                count.getType()));
  // Per-row operands are scalars used from above.
  unsigned first = op.getInputs().size();
  for (auto [arg, stat] :
       llvm::zip(from.getArguments().drop_front(first), op.getStats()))
    body.map(arg, map.lookup(stat));
  auto cloneInto = [&](OpBuilder &at) -> Value {
    for (Operation &inner : from.without_terminator())
      if (!isa<norm::CountOp>(inner))
        at.clone(inner, body);
    return body.lookup(cast<norm::YieldOp>(from.getTerminator()).getValue());
  };
  if (op.isPerRow()) {
    map.map(op.getResult(), cloneInto(b));
    return success();
  }
  SmallVector<Value> inputs;
  for (Value input : op.getInputs())
    inputs.push_back(map.lookup(input));
  Value count;
  if (auto fraction = op.getFraction())
    count = featureCount(loc, *fraction);
  auto row =
      sched::RowType::get(b.getContext(), op.getTensorType().getElementType());
  auto mapped = sched::MapOp::create(b, loc, row, inputs, count);
  // A map of per-group values (a block scale) computes the same value for
  // every feature of a group: recomputing it where it is read costs less
  // than keeping a row of it.
  if (norm::groupSizeOf(op.getResult()))
    mapped.setRecompute(true);
  Block &to = mapped.getBody().emplaceBlock();
  for (auto [arg, input] : llvm::zip(from.getArguments(), inputs))
    body.map(arg, to.addArgument(sched::getElementType(input.getType()), loc));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&to);
  sched::YieldOp::create(b, loc, cloneInto(b));
  map.map(op.getResult(), mapped);
  return success();
}

namespace {
struct ConvertNormToSched
    : public normc::impl::ConvertNormToSchedBase<ConvertNormToSched> {
  void runOnOperation() override {
    SmallVector<norm::SpecOp> specs(getOperation().getOps<norm::SpecOp>());
    for (norm::SpecOp spec : specs) {
      FailureOr<Type> acc = findAccumulateType(spec);
      if (failed(acc) || failed(SpecLowering(spec, *acc).lower()))
        return signalPassFailure();
    }
  }
};
} // namespace
