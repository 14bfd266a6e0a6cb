//===- MapVjp.cpp - The derivative of a norm.map, from its body -----------===//
//
// Reverse mode over the body's straight-line scalar code. Each operand
// receives a map that recomputes the body from the operands' elements and
// then carries the cotangent back through the body's ops, last op first, by
// one rule per scalar op (add, sub, mul, div, exp, tanh, erf, sqrt, rsqrt,
// select). Roundings (truncf, extf) are the identity
// (docs/backward.md), so every adjoint is in the accumulate type.
//
//===----------------------------------------------------------------------===//
#include "normc/Dialect/Norm/IR/NormOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace normc::norm;

/// Whether `op` may be in a body the rules below differentiate: ops that
/// pass a derivative on, and ops whose result carries none (constants,
/// counts, comparisons).
static bool hasRule(Operation &op) {
  return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             math::ExpOp, math::TanhOp, math::ErfOp, math::SqrtOp,
             math::RsqrtOp, arith::ExtFOp, arith::TruncFOp, arith::SelectOp,
             arith::ConstantOp, arith::CmpFOp, arith::SIToFPOp, CountOp>(op);
}

namespace {
/// One reverse sweep, built into the body of a map of the backward.
class ReverseSweep {
public:
  ReverseSweep(VjpBuilder &vjp, Location loc, IRMapping &primal)
      : vjp(vjp), b(vjp.builder()), loc(loc), primal(primal) {}

  /// The adjoint of `argument` of `body` (whose ops are already cloned
  /// through `primal`), seeded at its yield with `seed`.
  Value adjointOf(Block &body, BlockArgument argument, Value seed);

private:
  Value p(Value forward) { return vjp.toAcc(loc, primal.lookup(forward)); }
  Value zero() { return vjp.constant(loc, 0.0); }
  void add(Value forward, Value contribution);
  void differentiate(Operation &op, Value dr);

  VjpBuilder &vjp;
  OpBuilder &b;
  Location loc;
  IRMapping &primal;
  llvm::DenseMap<Value, Value> adjoints;
};
} // namespace

void ReverseSweep::add(Value forward, Value contribution) {
  Value &sum = adjoints[forward];
  sum = sum ? arith::AddFOp::create(b, loc, sum, contribution).getResult()
            : contribution;
}

void ReverseSweep::differentiate(Operation &op, Value dr) {
  // One op per statement, so that the IR does not depend on the order in
  // which the compiler evaluates a call's arguments.
  llvm::TypeSwitch<Operation *>(&op)
      .Case<arith::AddFOp>([&](auto add) {
        this->add(add.getLhs(), dr);
        this->add(add.getRhs(), dr);
      })
      .Case<arith::SubFOp>([&](auto sub) {
        add(sub.getLhs(), dr);
        Value zero = this->zero();
        add(sub.getRhs(), arith::SubFOp::create(b, loc, zero, dr));
      })
      .Case<arith::MulFOp>([&](auto mul) {
        Value rhs = p(mul.getRhs());
        add(mul.getLhs(), arith::MulFOp::create(b, loc, dr, rhs));
        Value lhs = p(mul.getLhs());
        add(mul.getRhs(), arith::MulFOp::create(b, loc, dr, lhs));
      })
      .Case<arith::DivFOp>([&](auto div) {
        // r = a / b: a receives dr / b, b receives -(dr r) / b.
        Value divisor = p(div.getRhs());
        add(div.getLhs(), arith::DivFOp::create(b, loc, dr, divisor));
        Value r = p(div.getResult());
        Value drr = arith::MulFOp::create(b, loc, dr, r);
        Value zero = this->zero();
        Value negated = arith::SubFOp::create(b, loc, zero, drr);
        add(div.getRhs(), arith::DivFOp::create(b, loc, negated, divisor));
      })
      .Case<math::ExpOp>([&](auto exp) {
        // dr e, but 0 where dr is 0: an exp that overflowed to infinity
        // (a gate's exp(-z) for z below about -88 in f32) has a result
        // whose derivative downstream is 0, and 0 * inf would be NaN.
        Value e = p(exp.getResult());
        Value product = arith::MulFOp::create(b, loc, dr, e);
        Value zero = this->zero();
        Value none =
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, dr, zero);
        add(exp.getOperand(),
            arith::SelectOp::create(b, loc, none, zero, product));
      })
      .Case<math::TanhOp>([&](auto tanh) {
        // r = tanh(a): a receives dr (1 - r^2), as 4 e / (1 + e)^2 with
        // e = exp(-2 |a|): 1 - r^2 would lose all of its digits to
        // cancellation where r rounds close to 1.
        Value a = p(tanh.getOperand());
        Value magnitude = math::AbsFOp::create(b, loc, a);
        Value minusTwo = vjp.constant(loc, -2.0);
        Value exponent = arith::MulFOp::create(b, loc, minusTwo, magnitude);
        Value e = math::ExpOp::create(b, loc, exponent);
        Value one = vjp.constant(loc, 1.0);
        Value onePlusE = arith::AddFOp::create(b, loc, one, e);
        Value square = arith::MulFOp::create(b, loc, onePlusE, onePlusE);
        Value four = vjp.constant(loc, 4.0);
        Value numerator = arith::MulFOp::create(b, loc, four, e);
        Value slope = arith::DivFOp::create(b, loc, numerator, square);
        add(tanh.getOperand(), arith::MulFOp::create(b, loc, dr, slope));
      })
      .Case<math::ErfOp>([&](auto erf) {
        // r = erf(a): a receives dr 2 / sqrt(pi) exp(-a^2).
        Value a = p(erf.getOperand());
        Value aa = arith::MulFOp::create(b, loc, a, a);
        Value zero = this->zero();
        Value negated = arith::SubFOp::create(b, loc, zero, aa);
        Value e = math::ExpOp::create(b, loc, negated);
        Value twoOverRootPi = vjp.constant(loc, 1.1283791670955126);
        Value slope = arith::MulFOp::create(b, loc, twoOverRootPi, e);
        add(erf.getOperand(), arith::MulFOp::create(b, loc, dr, slope));
      })
      .Case<math::SqrtOp>([&](auto sqrt) {
        // r = sqrt(a): a receives dr / (2 r).
        Value two = vjp.constant(loc, 2.0);
        Value r = p(sqrt.getResult());
        Value twoR = arith::MulFOp::create(b, loc, two, r);
        add(sqrt.getOperand(), arith::DivFOp::create(b, loc, dr, twoR));
      })
      .Case<math::RsqrtOp>([&](auto rsqrt) {
        // r = a^(-1/2): a receives dr (-r^3 / 2).
        Value r = p(rsqrt.getResult());
        Value rr = arith::MulFOp::create(b, loc, r, r);
        Value rrr = arith::MulFOp::create(b, loc, rr, r);
        Value half = vjp.constant(loc, -0.5);
        Value slope = arith::MulFOp::create(b, loc, half, rrr);
        add(rsqrt.getOperand(), arith::MulFOp::create(b, loc, dr, slope));
      })
      .Case<arith::ExtFOp, arith::TruncFOp>(
          [&](auto convert) { add(convert.getIn(), dr); })
      .Case<arith::SelectOp>([&](auto select) {
        Value condition = primal.lookup(select.getCondition());
        Value zero = this->zero();
        add(select.getTrueValue(),
            arith::SelectOp::create(b, loc, condition, dr, zero));
        add(select.getFalseValue(),
            arith::SelectOp::create(b, loc, condition, zero, dr));
      });
  // Constants, counts, comparisons and integer conversions pass nothing on.
}

Value ReverseSweep::adjointOf(Block &body, BlockArgument argument, Value seed) {
  adjoints[cast<YieldOp>(body.getTerminator()).getValue()] = seed;
  for (Operation &op : llvm::reverse(body.without_terminator()))
    if (op.getNumResults() == 1)
      if (Value dr = adjoints.lookup(op.getResult(0)))
        differentiate(op, dr);
  Value adjoint = adjoints.lookup(argument);
  return adjoint ? adjoint : zero();
}

LogicalResult MapOp::buildVjp(VjpBuilder &vjp) {
  Location loc = getLoc();
  Block &from = getBody().front();
  for (Operation &op : from.without_terminator())
    if (!hasRule(op))
      return op.emitOpError("has no derivative rule, so the norm.map that "
                            "holds it cannot be differentiated");
  // The operands, then the cotangent: with the [rows, d] operands, or with
  // the per-row ones for a per-row map.
  bool rows = !isPerRow();
  SmallVector<Value> inputs, stats;
  for (Value v : getInputs())
    inputs.push_back(vjp.primal(v));
  for (Value v : getStats())
    stats.push_back(vjp.primal(v));
  unsigned seedIndex = rows ? inputs.size() : stats.size();
  (rows ? inputs : stats).push_back(vjp.cotangent(getResult()));
  std::optional<double> fraction;
  if (auto f = getFraction())
    fraction = f->convertToDouble();

  for (unsigned index = 0, e = getNumOperands(); index < e; ++index) {
    Value operand = getOperand(index);
    auto type = cast<RankedTensorType>(operand.getType());
    if (type.getRank() == 1 && !ShapedType::isDynamic(type.getDimSize(0)) &&
        !isa_and_nonnull<ParamOp>(operand.getDefiningOp()))
      return emitOpError("cannot pass a gradient to operand #")
             << index << ", one value for every row";
    Value gradient = vjp.map(
        loc, inputs, stats, rows,
        [&](ValueRange e) {
          // e holds the new map's elements: the cotangent's sits at
          // seedIndex, after the forward operands of its kind.
          IRMapping primal;
          for (BlockArgument arg : from.getArguments()) {
            unsigned at = arg.getArgNumber();
            if (rows && at >= seedIndex)
              ++at;
            primal.map(arg, e[at]);
          }
          for (Operation &op : from.without_terminator())
            vjp.builder().clone(op, primal);
          ReverseSweep sweep(vjp, loc, primal);
          return sweep.adjointOf(from, from.getArgument(index),
                                 vjp.toAcc(loc, e[seedIndex]));
        },
        fraction);
    vjp.accumulate(operand, gradient);
  }
  return success();
}
