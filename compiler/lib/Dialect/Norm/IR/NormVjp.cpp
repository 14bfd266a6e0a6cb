//===- NormVjp.cpp - The vector-Jacobian rule of each norm op -------------===//
//
// Each rule reads the cotangents of its op's results and adds the exact
// derivative of the forward (docs/spec.md) to its operands, every rounding
// treated as the identity (docs/backward.md). Broadcasts are implicit: a
// [rows, d] contribution to a per-row or per-feature operand is summed by
// the VjpBuilder.
//
//===----------------------------------------------------------------------===//
#include "normc/Dialect/Norm/IR/NormOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace normc::norm;

namespace {
/// Scalar arithmetic inside a rule's map bodies.
struct Scalars {
  OpBuilder &b;
  Location loc;
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
};
} // namespace

/// The divisor D of a moment: k, or k - 1 when unbiased.
static Value momentDivisor(VjpBuilder &vjp, MomentOp op) {
  Location loc = op.getLoc();
  Value k = vjp.count(loc, op.getFraction().convertToDouble());
  if (op.getVariance() == Variance::biased)
    return k;
  return arith::SubFOp::create(vjp.builder(), loc, k, vjp.constant(loc, 1.0));
}

LogicalResult ResidualAddOp::buildVjp(VjpBuilder &vjp) {
  // h = x + r: both receive dh.
  Value dh = vjp.cotangent(getResult());
  vjp.accumulate(getX(), dh);
  vjp.accumulate(getResidual(), dh);
  return success();
}

LogicalResult MeanOp::buildVjp(VjpBuilder &vjp) {
  // mu = sum(h[0:k]) / k: each of the first k features receives dmu / k.
  Location loc = getLoc();
  double fraction = getFraction().convertToDouble();
  Value dmu = vjp.cotangent(getResult());
  vjp.accumulate(getInput(), vjp.map(
                                 loc, {}, {dmu}, /*rows=*/true,
                                 [&](ValueRange e) {
                                   Scalars s{vjp.builder(), loc};
                                   return s.div(vjp.toAcc(loc, e[0]),
                                                vjp.count(loc, fraction));
                                 },
                                 fraction));
  return success();
}

LogicalResult MomentOp::buildVjp(VjpBuilder &vjp) {
  // s = sum((h[0:k] - mu)^2) / D: h[i] receives ds * 2 (h[i] - mu) / D for
  // i < k, and mu minus the sum of that over the features.
  Location loc = getLoc();
  double fraction = getFraction().convertToDouble();
  Value ds = vjp.cotangent(getResult());
  SmallVector<Value> stats = {ds};
  if (getMean())
    stats.push_back(vjp.primal(getMean()));
  auto term = [&](double sign) {
    return vjp.map(
        loc, {vjp.primal(getInput())}, stats, /*rows=*/true,
        [&](ValueRange e) {
          Scalars s{vjp.builder(), loc};
          Value centered = vjp.toAcc(loc, e[0]);
          if (getMean())
            centered = s.sub(centered, vjp.toAcc(loc, e[2]));
          Value t = s.mul(vjp.constant(loc, 2.0 * sign),
                          s.mul(vjp.toAcc(loc, e[1]), centered));
          return s.div(t, momentDivisor(vjp, *this));
        },
        fraction);
  };
  vjp.accumulate(getInput(), term(1.0));
  if (getMean())
    vjp.accumulate(getMean(), term(-1.0));
  return success();
}

LogicalResult RstdOp::buildVjp(VjpBuilder &vjp) {
  // inside_sqrt: r = (s + eps)^(-1/2), dr/ds = -r^3 / 2.
  // outside_sqrt: r = 1 / (sqrt(s) + eps), dr/ds = -r^2 / (2 sqrt(s)).
  Location loc = getLoc();
  bool inside = getPlacement() == EpsilonPlacement::inside_sqrt;
  SmallVector<Value> stats = {vjp.cotangent(getResult()),
                              vjp.primal(getResult())};
  if (!inside)
    stats.push_back(vjp.primal(getMoment()));
  Value ds = vjp.map(loc, {}, stats, /*rows=*/false, [&](ValueRange e) {
    Scalars s{vjp.builder(), loc};
    Value dr = vjp.toAcc(loc, e[0]), r = vjp.toAcc(loc, e[1]);
    // One op per statement, so that the IR does not depend on the order in
    // which the compiler evaluates a call's arguments.
    Value rr = s.mul(r, r);
    if (inside) {
      Value rrr = s.mul(rr, r);
      return s.mul(dr, s.mul(vjp.constant(loc, -0.5), rrr));
    }
    Value root = math::SqrtOp::create(vjp.builder(), loc, vjp.toAcc(loc, e[2]));
    Value twoRoot = s.mul(vjp.constant(loc, 2.0), root);
    return s.div(s.mul(dr, s.sub(vjp.constant(loc, 0.0), rr)), twoRoot);
  });
  vjp.accumulate(getMoment(), ds);
  return success();
}

LogicalResult NormalizeOp::buildVjp(VjpBuilder &vjp) {
  // y = (h - mu) * r * G + beta with G = gain_offset + gamma, and
  // g = dy * G: h receives g * r, mu -g * r, r g * (h - mu),
  // gamma dy * (h - mu) * r, beta dy.
  Location loc = getLoc();
  Value dy = vjp.cotangent(getResult());
  Value h = vjp.primal(getInput());
  Value gamma = getGain() ? vjp.primal(getGain()) : Value();
  double offset = getGainOffset().convertToDouble();
  // The per-row operands every map takes, in this order, when present.
  SmallVector<Value> stats;
  if (getMean())
    stats.push_back(vjp.primal(getMean()));
  if (getRstd())
    stats.push_back(vjp.primal(getRstd()));
  // Maps over (dy, [h], [gamma]) and the statistics; `term` sees them
  // converted to the accumulate type, null when absent.
  struct Elements {
    Value dy, h, gain, mu, r;
  };
  auto mapOf = [&](bool withH, bool withGain,
                   llvm::function_ref<Value(Scalars &, Elements &)> term) {
    SmallVector<Value> inputs = {dy};
    if (withH)
      inputs.push_back(h);
    if (withGain)
      inputs.push_back(gamma);
    return vjp.map(loc, inputs, stats, /*rows=*/true, [&](ValueRange e) {
      Scalars s{vjp.builder(), loc};
      Elements x;
      unsigned next = 0;
      x.dy = vjp.toAcc(loc, e[next++]);
      if (withH)
        x.h = vjp.toAcc(loc, e[next++]);
      if (withGain) {
        x.gain = vjp.toAcc(loc, e[next++]);
        if (offset != 0.0)
          x.gain = s.add(vjp.constant(loc, offset), x.gain);
      }
      if (getMean())
        x.mu = vjp.toAcc(loc, e[next++]);
      if (getRstd())
        x.r = vjp.toAcc(loc, e[next++]);
      return term(s, x);
    });
  };
  auto g = [&](Scalars &s, Elements &x) {
    return x.gain ? s.mul(x.dy, x.gain) : x.dy;
  };
  auto centered = [&](Scalars &s, Elements &x) {
    return x.mu ? s.sub(x.h, x.mu) : x.h;
  };
  bool withGain = bool(gamma);
  Value dh = mapOf(false, withGain, [&](Scalars &s, Elements &x) {
    return x.r ? s.mul(g(s, x), x.r) : g(s, x);
  });
  vjp.accumulate(getInput(), dh);
  if (getMean())
    vjp.accumulate(getMean(),
                   mapOf(false, withGain, [&](Scalars &s, Elements &x) {
                     Value t = x.r ? s.mul(g(s, x), x.r) : g(s, x);
                     return s.sub(vjp.constant(loc, 0.0), t);
                   }));
  if (getRstd())
    vjp.accumulate(getRstd(),
                   mapOf(true, withGain, [&](Scalars &s, Elements &x) {
                     return s.mul(g(s, x), centered(s, x));
                   }));
  if (getGain())
    vjp.accumulate(getGain(), mapOf(true, false, [&](Scalars &s, Elements &x) {
                     Value n = centered(s, x);
                     if (x.r)
                       n = s.mul(n, x.r);
                     return s.mul(x.dy, n);
                   }));
  if (getBias())
    vjp.accumulate(getBias(), mapOf(false, false, [&](Scalars &, Elements &x) {
                     return x.dy;
                   }));
  return success();
}

LogicalResult FillOp::buildVjp(VjpBuilder &) {
  return success(); // a constant: nothing flows back
}

LogicalResult ConvertOp::buildVjp(VjpBuilder &vjp) {
  Location loc = getLoc();
  Value d = vjp.cotangent(getResult());
  vjp.accumulate(getInput(), vjp.map(loc, {}, {d}, /*rows=*/false,
                                     [&](ValueRange e) { return e[0]; }));
  return success();
}
