//===- DeriveBackward.cpp - The backward computation of a spec ------------===//
//
// The backward spec recomputes the forward values it needs (or reads the
// saved statistics), seeds the cotangents of the stored outputs with dy
// and dresidual_out, applies each op's VjpOpInterface rule in reverse
// order, and stores the cotangents of the inputs and parameters. Dead
// forward values are dropped, so the kernels read only what they use.
//
//===----------------------------------------------------------------------===//
#include "normc/Abi/ReservedNames.h"
#include "normc/Dialect/Norm/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

namespace normc::norm {
#define GEN_PASS_DEF_NORMDERIVEBACKWARD
#include "normc/Dialect/Norm/Transforms/Passes.h.inc"
} // namespace normc::norm

using namespace mlir;
using namespace normc::norm;

namespace {

/// The accumulate type of a forward spec: that of its normalization, or of
/// its statistics.
Type accumulateTypeOf(SpecOp spec) {
  for (auto normalize : spec.getBody().getOps<NormalizeOp>())
    return normalize.getAccumulateType();
  for (Operation &op : spec.getBody().front())
    if (isa<MeanOp, MomentOp>(op))
      return cast<RankedTensorType>(op.getResult(0).getType()).getElementType();
  return {};
}

class BackwardBuilder : public VjpBuilder {
public:
  /// `rowsAcc`: the type the parameters' gradients are summed over the
  /// rows in.
  BackwardBuilder(OpBuilder &b, Type acc, Type rowsAcc, ArrayRef<int64_t> rows)
      : VjpBuilder(b, acc, rows), rowsAcc(rowsAcc) {}

  Value primal(Value v) override { return primals.lookup(v); }
  Value cotangent(Value v) override;
  void accumulate(Value v, Value contribution) override {
    if (contribution)
      contributions[v].push_back(contribution);
  }

  IRMapping primals;

private:
  /// Cotangents of the forward values that are known in full.
  llvm::DenseMap<Value, Value> done;
  /// The sum of `terms` (all of one shape), elementwise in the accumulate
  /// type, with elements of type `element` (default: the accumulate type).
  Value sum(Location loc, ArrayRef<Value> terms, bool rows, Type element = {});
  llvm::DenseMap<Value, SmallVector<Value>> contributions;
  Type rowsAcc;
};

Value BackwardBuilder::sum(Location loc, ArrayRef<Value> terms, bool rows,
                           Type element) {
  Type termType =
      cast<RankedTensorType>(terms.front().getType()).getElementType();
  if (terms.size() == 1 && (!element || element == termType))
    return terms.front();
  SmallVector<Value> inputs, stats;
  (rows ? inputs : stats).append(terms.begin(), terms.end());
  return map(
      loc, inputs, stats, rows,
      [&](ValueRange e) {
        Value total = toAcc(loc, e[0]);
        for (Value t : e.drop_front())
          total = arith::AddFOp::create(builder(), loc, total, toAcc(loc, t));
        return total;
      },
      std::nullopt, element);
}

Value BackwardBuilder::cotangent(Value v) {
  if (Value known = done.lookup(v))
    return known;
  auto it = contributions.find(v);
  if (it == contributions.end())
    return {};
  Location loc = v.getLoc();
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<Value> same, rowsTerms;
  for (Value c : it->second)
    (cast<RankedTensorType>(c.getType()).getRank() == type.getRank()
         ? same
         : rowsTerms)
        .push_back(c);
  bool perRow = type.getRank() == 1 && !isa<ParamOp>(v.getDefiningOp());
  if (perRow && !rowsTerms.empty())
    // The transpose of broadcasting over the features: a sum over all d.
    same.push_back(ReduceOp::create(
        builder(), loc,
        RankedTensorType::get(type.getShape(), accumulateType()),
        sum(loc, rowsTerms, true), builder().getF64FloatAttr(1.0)));
  Value total;
  auto param = dyn_cast_or_null<ParamOp>(v.getDefiningOp());
  if (param && param.getScalar()) {
    // Over the features of each row, then over the rows in the rows'
    // accumulate type: a scalar's gradient, rounded once to its type.
    auto perRow = [&](Type element) {
      return RankedTensorType::get({rowsShape()[0]}, element);
    };
    // Per-row contributions (from a per-row map) need no sum over features.
    SmallVector<Value> perRowTerms = same;
    if (!rowsTerms.empty())
      perRowTerms.push_back(ReduceOp::create(
          builder(), loc, perRow(accumulateType()), sum(loc, rowsTerms, true),
          builder().getF64FloatAttr(1.0)));
    Value rowSums = sum(loc, perRowTerms, false);
    if (rowsAcc != accumulateType())
      rowSums = ConvertOp::create(builder(), loc, perRow(rowsAcc), rowSums);
    total = SumRowsOp::create(builder(), loc, type, rowSums);
  } else if (param) {
    // Over the rows, in the rows' accumulate type: a parameter's gradient,
    // rounded once to its type.
    total = SumRowsOp::create(builder(), loc, type,
                              sum(loc, rowsTerms, true, rowsAcc));
  } else
    total = sum(loc, same, type.getRank() == 2);
  done[v] = total;
  return total;
}

/// Removes the ops of `block` whose results nobody uses, inputs included.
void dropDeadValues(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
    if (op.getNumResults() && op.use_empty())
      op.erase();
}

struct NormDeriveBackward
    : public normc::norm::impl::NormDeriveBackwardBase<NormDeriveBackward> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<SpecOp> specs(getOperation().getOps<SpecOp>());
    for (SpecOp spec : specs)
      if (failed(derive(spec)))
        return signalPassFailure();
  }

  LogicalResult derive(SpecOp forward);
};

} // namespace

LogicalResult NormDeriveBackward::derive(SpecOp forward) {
  Type acc = accumulateTypeOf(forward);
  if (!acc)
    return forward.emitOpError(
        "computes neither statistics nor a normalization to "
        "differentiate");
  Block &body = forward.getBody().front();
  // What the forward stores: `y`, `residual_out`, the saved statistics.
  llvm::StringMap<OutputOp> outputs;
  for (auto out : body.getOps<OutputOp>())
    outputs[out.getName()] = out;
  auto outputValue = [&](StringRef name) -> Value {
    auto it = outputs.find(name);
    return it == outputs.end() ? Value() : it->second.getValue();
  };
  if (!outputValue("y"))
    return forward.emitOpError("stores no 'y' to differentiate");
  // A saved statistic (f32, as a forward with save_stats stores it)
  // replaces the op computing it.
  llvm::MapVector<Operation *, StringRef> saved; // in program order
  if (savedStats)
    for (Operation &op : body) {
      StringRef name = isa<MeanOp>(op) ? "mean" : isa<RstdOp>(op) ? "rstd" : "";
      if (name.empty())
        continue;
      if (llvm::is_contained(llvm::make_second_range(saved), name))
        return op.emitOpError("is a second '")
               << name << "' statistic; saved statistics name one each";
      saved[&op] = name;
    }

  // Built next to the forward, which it replaces once it is complete.
  OpBuilder b(forward);
  auto backward =
      SpecOp::create(b, forward.getLoc(),
                     (forward.getSymName() + normc::kBackwardSuffix).str());
  backward.setReproducible(forward.getReproducible());
  b.setInsertionPointToStart(&backward.getBody().emplaceBlock());
  auto abandon = [&]() {
    backward.erase();
    return failure();
  };
  BackwardBuilder vjp(
      b, acc, forward.getAccumulateRows().value_or(acc),
      cast<RankedTensorType>(outputValue("y").getType()).getShape());

  // The forward values, recomputed; the inputs first, in their order, then
  // the seeds and saved statistics.
  SmallVector<Operation *> program;
  for (Operation &op : body)
    if (!isa<OutputOp>(op))
      program.push_back(&op);
  for (Operation *op : program)
    if (isa<InputOp, ParamOp>(op))
      vjp.primals.map(op->getResult(0), b.clone(*op)->getResult(0));
  Value y = outputValue("y");
  auto rowsOf = [&](Type element) {
    auto t = cast<RankedTensorType>(y.getType());
    return RankedTensorType::get(t.getShape(), element);
  };
  // The seeds: what arrives at the stored outputs (residual_out is also
  // read by the statistics, whose rules add to it).
  vjp.accumulate(
      y,
      InputOp::create(
          b, outputs["y"].getLoc(),
          rowsOf(cast<RankedTensorType>(y.getType()).getElementType()), "dy"));
  if (Value h = outputValue("residual_out"); h && dresidualOut)
    vjp.accumulate(h, InputOp::create(b, outputs["residual_out"].getLoc(),
                                      h.getType(), "dresidual_out"));
  for (auto &[op, name] : saved) {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    Value in = InputOp::create(
        b, op->getLoc(), RankedTensorType::get(type.getShape(), b.getF32Type()),
        name);
    if (type.getElementType() != b.getF32Type())
      in = ConvertOp::create(b, op->getLoc(), type, in);
    vjp.primals.map(op->getResult(0), in);
  }
  for (Operation *op : program)
    if (!isa<InputOp, ParamOp>(op) && !saved.count(op))
      b.clone(*op, vjp.primals);

  // The rules, last op first: every use of a value is differentiated
  // before the value itself.
  for (Operation *op : llvm::reverse(program)) {
    if (isa<InputOp, ParamOp>(op) ||
        llvm::none_of(op->getResults(),
                      [&](Value r) { return bool(vjp.cotangent(r)); }))
      continue;
    auto rule = dyn_cast<VjpOpInterface>(op);
    if (!rule) {
      op->emitOpError("receives a gradient but has no derivative rule "
                      "(VjpOpInterface)");
      return abandon();
    }
    if (failed(rule.buildVjp(vjp)))
      return abandon();
  }

  // The gradients of the inputs, rounded to their storage types, and of
  // the parameters: dx (also dresidual), dgamma, dbeta.
  for (Operation *op : program) {
    if (!isa<InputOp, ParamOp>(op))
      continue;
    Value v = op->getResult(0);
    StringRef name = op->getAttrOfType<StringAttr>("name").getValue();
    Value grad = vjp.cotangent(v);
    if (!grad) {
      op->emitOpError("receives no gradient");
      return abandon();
    }
    auto type = cast<RankedTensorType>(v.getType());
    if (isa<InputOp>(op) && // rounded to the input type
        cast<RankedTensorType>(grad.getType()).getElementType() !=
            type.getElementType())
      grad = vjp.map(
          op->getLoc(), {grad}, {}, /*rows=*/true,
          [&](ValueRange e) { return e[0]; }, std::nullopt,
          type.getElementType());
    OutputOp::create(b, op->getLoc(), ("d" + name).str(), grad);
  }
  dropDeadValues(backward.getBody().front());
  forward.erase();
  return success();
}
