//===- NormToSched.cpp - Lower norm.spec to sched.kernel ------------------===//
//
// The spec is a dataflow of whole tensors; the kernel is the program one
// group of threads runs for one row. The lowering walks the spec in order and
// maps each tensor value to the row value, per-row scalar or buffer that
// stands for it inside the kernel.
//
//===----------------------------------------------------------------------===//
#include "normc/Conversion/Passes.h"
#include "normc/Dialect/Norm/IR/NormOps.h"
#include "normc/Dialect/Sched/IR/SchedOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"

#include <map>

namespace normc {
#define GEN_PASS_DEF_CONVERTNORMTOSCHED
#include "normc/Conversion/Passes.h.inc"
} // namespace normc

using namespace mlir;
using namespace normc;

namespace {

/// The accumulate type of a spec: the element type of its statistics.
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
    else if (isa<norm::MeanOp, norm::MomentOp>(op))
      ok = merge(
          &op,
          cast<RankedTensorType>(op.getResult(0).getType()).getElementType());
    if (failed(ok))
      return failure();
  }
  if (!acc)
    return spec.emitOpError("computes no statistics");
  return acc;
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
  LogicalResult lowerOp(Operation &op);
  /// Converts a scalar to `to`, rounding to nearest even when narrowing.
  Value convert(Location loc, Value v, Type to);
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
};

} // namespace

Value SpecLowering::featureCount(Location loc, APFloat fraction) {
  Value &count = counts[fraction.convertToDouble()];
  if (!count)
    count = sched::FeatureCountOp::create(
        b, loc, b.getI32Type(), b.getF64FloatAttr(fraction.convertToDouble()));
  return count;
}

Value SpecLowering::convert(Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  unsigned fromBits = from.getIntOrFloatBitWidth(),
           toBits = to.getIntOrFloatBitWidth();
  if (fromBits == toBits) // f16 <-> bf16 goes through f32 exactly
    return convert(loc, convert(loc, v, b.getF32Type()), to);
  if (toBits < fromBits)
    return arith::TruncFOp::create(b, loc, to, v);
  return arith::ExtFOp::create(b, loc, to, v);
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
  std::optional<int64_t> cols = spec.getCols();
  auto kernel =
      sched::KernelOp::create(b, spec.getLoc(), spec.getSymNameAttr(),
                              cols ? b.getI64IntegerAttr(*cols) : IntegerAttr(),
                              TypeAttr::get(acc), sched::ScheduleAttr());
  b.setInsertionPointToStart(&kernel.getBody().emplaceBlock());

  // Buffers first, in argument order: what is read, then what is written.
  Block &body = spec.getBody().front();
  llvm::StringMap<Value> outputs;
  for (Operation &op : body) {
    if (auto in = dyn_cast<norm::InputOp>(op)) {
      auto type = sched::RowsType::get(ctx, in.getType().getElementType());
      Value buffer =
          sched::BufferOp::create(b, in.getLoc(), type, in.getName());
      map.map(in.getResult(), buffer);
    } else if (auto param = dyn_cast<norm::ParamOp>(op)) {
      auto type =
          sched::FeaturesType::get(ctx, param.getType().getElementType());
      map.map(param.getResult(), sched::BufferOp::create(
                                     b, param.getLoc(), type, param.getName()));
    }
  }
  for (auto out : body.getOps<norm::OutputOp>()) {
    auto tensor = cast<RankedTensorType>(out.getValue().getType());
    Type type = tensor.getRank() == 2
                    ? Type(sched::RowsType::get(ctx, tensor.getElementType()))
                    : Type(sched::StatsType::get(ctx, tensor.getElementType()));
    outputs[out.getName()] =
        sched::BufferOp::create(b, out.getLoc(), type, out.getName());
  }

  // Outputs are stored as soon as they are computed: later passes over the
  // row then read the stored value (contract: everything after the residual
  // add reads the rounded h), which also keeps in-place use correct when an
  // output aliases an input.
  for (Operation &op : body) {
    if (isa<norm::OutputOp>(op))
      continue;
    if (failed(lowerOp(op)))
      return failure();
    for (Value result : op.getResults())
      for (Operation *user : result.getUsers())
        if (auto out = dyn_cast<norm::OutputOp>(user))
          storeOutput(out, outputs.lookup(out.getName()));
  }
  spec.erase();
  return success();
}

void SpecLowering::storeOutput(norm::OutputOp out, Value buffer) {
  Value value = map.lookup(out.getValue());
  if (isa<sched::RowsType>(buffer.getType()))
    sched::StoreRowOp::create(b, out.getLoc(), value, buffer);
  else
    sched::StoreStatOp::create(b, out.getLoc(), value, buffer);
}

LogicalResult SpecLowering::lowerOp(Operation &op) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  auto rowOf = [&](Type tensor) {
    return sched::RowType::get(ctx,
                               cast<RankedTensorType>(tensor).getElementType());
  };

  if (auto in = dyn_cast<norm::InputOp>(op)) {
    // Loaded where it is defined; params stay buffers (read per chunk).
    map.map(in.getResult(),
            sched::LoadRowOp::create(b, loc, rowOf(in.getType()),
                                     map.lookup(in.getResult())));
    return success();
  }
  if (isa<norm::ParamOp>(op))
    return success();
  if (auto add = dyn_cast<norm::ResidualAddOp>(op)) {
    Value x = map.lookup(add.getX());
    Type element = sched::getElementType(x.getType());
    map.map(add.getResult(),
            withBody<sched::MapOp>(
                loc, x.getType(), {x, map.lookup(add.getResidual())},
                [&](ValueRange f) {
                  Value lhs = convert(loc, f[0], acc);
                  Value rhs = convert(loc, f[1], acc);
                  Value sum = arith::AddFOp::create(b, loc, lhs, rhs);
                  return convert(loc, sum, element);
                }));
    return success();
  }
  if (auto mean = dyn_cast<norm::MeanOp>(op)) {
    Value count = featureCount(loc, mean.getFraction());
    Value sum = withBody<sched::ReduceOp>(
        loc, acc, {map.lookup(mean.getInput())},
        [&](ValueRange f) { return convert(loc, f[0], acc); }, count);
    map.map(mean.getResult(),
            arith::DivFOp::create(b, loc, sum, countAsAccumulate(loc, count)));
    return success();
  }
  if (auto moment = dyn_cast<norm::MomentOp>(op)) {
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
    map.map(
        moment.getResult(),
        arith::DivFOp::create(b, loc, sum, countAsAccumulate(loc, divisor)));
    return success();
  }
  if (auto rstd = dyn_cast<norm::RstdOp>(op)) {
    Value moment = map.lookup(rstd.getMoment());
    Value eps = constant(loc, rstd.getEpsilon().convertToDouble());
    Value r;
    if (rstd.getPlacement() == norm::EpsilonPlacement::inside_sqrt) {
      r = math::RsqrtOp::create(b, loc,
                                arith::AddFOp::create(b, loc, moment, eps));
    } else {
      Value root = math::SqrtOp::create(b, loc, moment);
      r = arith::DivFOp::create(b, loc, constant(loc, 1.0),
                                arith::AddFOp::create(b, loc, root, eps));
    }
    map.map(rstd.getResult(), r);
    return success();
  }
  if (auto normalize = dyn_cast<norm::NormalizeOp>(op)) {
    // y = (h - mean) * rstd * (gain_offset + gain) + bias, in that order.
    auto lookupOrNull = [&](Value v) { return v ? map.lookup(v) : Value(); };
    Value mean = lookupOrNull(normalize.getMean());
    Value rstd = lookupOrNull(normalize.getRstd());
    SmallVector<Value> inputs = {map.lookup(normalize.getInput())};
    if (normalize.getGain())
      inputs.push_back(map.lookup(normalize.getGain()));
    if (normalize.getBias())
      inputs.push_back(map.lookup(normalize.getBias()));
    auto result = rowOf(normalize.getType());
    double offset = normalize.getGainOffset().convertToDouble();
    map.map(normalize.getResult(),
            withBody<sched::MapOp>(loc, result, inputs, [&](ValueRange f) {
              Value t = convert(loc, f[0], acc);
              if (mean)
                t = arith::SubFOp::create(b, loc, t, mean);
              if (rstd)
                t = arith::MulFOp::create(b, loc, t, rstd);
              unsigned next = 1;
              if (normalize.getGain()) {
                Value g = convert(loc, f[next++], acc);
                if (offset != 0.0)
                  g = arith::AddFOp::create(b, loc, constant(loc, offset), g);
                t = arith::MulFOp::create(b, loc, t, g);
              }
              if (normalize.getBias())
                t = arith::AddFOp::create(b, loc, t,
                                          convert(loc, f[next], acc));
              return convert(loc, t, result.getElementType());
            }));
    return success();
  }
  if (auto fill = dyn_cast<norm::FillOp>(op)) {
    map.map(fill.getResult(), constant(loc, fill.getValue().convertToDouble()));
    return success();
  }
  if (auto convert = dyn_cast<norm::ConvertOp>(op)) {
    map.map(convert.getResult(),
            this->convert(loc, map.lookup(convert.getInput()),
                          convert.getType().getElementType()));
    return success();
  }
  return op.emitOpError("has no lowering to the sched dialect");
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
