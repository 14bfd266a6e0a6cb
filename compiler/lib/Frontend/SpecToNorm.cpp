//===- SpecToNorm.cpp - Build the spec-level IR from a spec ---------------===//
#include "normc/Frontend/SpecToNorm.h"
#include "normc/Dialect/ElementTypes.h"
#include "normc/Dialect/Norm/IR/NormOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace normc;

namespace {

class SpecBuilder {
public:
  SpecBuilder(const dsl::Spec &spec, MLIRContext &context)
      : spec(spec), ctx(context), b(&context) {}

  OwningOpRef<ModuleOp> build(std::optional<int64_t> fixedD);

private:
  Location loc(const dsl::SourceLoc &where) {
    if (where.line == 0)
      return FileLineColLoc::get(&ctx, spec.file, 1, 1);
    return FileLineColLoc::get(&ctx,
                               where.file.empty() ? spec.file : where.file,
                               where.line, where.column);
  }

  /// y, unrounded, divided by its scale and rounded to fp8 (docs/fp8.md);
  /// returns q and stores the scale (or, with a static scale, the amax).
  Value quantize(Value y, Value staticScale);

  /// v * act(z) elementwise, in the accumulate type, rounded to `element`
  /// (docs/spec.md, "Gates"): a norm.map, differentiated like any other.
  Value gate(Value v, Value z, Type element);

  /// n = tanh(alpha * h) or erf(alpha * h + shift) elementwise, in the
  /// accumulate type (docs/spec.md, "Dynamic Tanh and Derf").
  Value squash(Value h, Value alpha, Value shift);

  Type elementType(dsl::DType t) {
    return getElementTypeNamed(&ctx, dsl::toString(t));
  }

  const dsl::Spec &spec;
  MLIRContext &ctx;
  OpBuilder b;
};

} // namespace

OwningOpRef<ModuleOp> SpecBuilder::build(std::optional<int64_t> fixedD) {
  ctx.loadDialect<norm::NormDialect, arith::ArithDialect, math::MathDialect>();
  Location specLoc = loc(spec.name.loc);
  OwningOpRef<ModuleOp> module = ModuleOp::create(specLoc);
  b.setInsertionPointToEnd(module->getBody());
  auto specOp = norm::SpecOp::create(b, specLoc, spec.name.value);
  specOp.setReproducible(spec.reproducible.value);
  if (spec.rowsAccumulate() != spec.accumulate.value)
    specOp.setAccumulateRows(elementType(spec.rowsAccumulate()));
  b.setInsertionPointToStart(&specOp.getBody().emplaceBlock());

  int64_t d = fixedD ? *fixedD : ShapedType::kDynamic;
  Type acc = elementType(spec.accumulate.value);
  auto rowsOf = [&](dsl::DType t) {
    return RankedTensorType::get({ShapedType::kDynamic, d}, elementType(t));
  };
  auto featuresOf = [&](dsl::DType t) {
    return RankedTensorType::get({d}, elementType(t));
  };
  auto stats = RankedTensorType::get({ShapedType::kDynamic}, acc);
  auto f32Stats = RankedTensorType::get({ShapedType::kDynamic}, b.getF32Type());

  // Inputs, in argument order.
  Value h = norm::InputOp::create(b, loc(spec.input.loc),
                                  rowsOf(spec.input.value), "x");
  Value residual;
  if (spec.residualAdd.value)
    residual = norm::InputOp::create(b, loc(spec.residualAdd.loc),
                                     rowsOf(spec.residualType()), "residual");
  Value z;
  if (spec.gated())
    z = norm::InputOp::create(b, loc(spec.gate.loc), rowsOf(spec.input.value),
                              "z");
  Value gamma, beta;
  if (spec.gain.value)
    gamma = norm::ParamOp::create(b, loc(spec.gain.loc),
                                  featuresOf(spec.params.value), "gamma");
  if (spec.bias.value)
    beta = norm::ParamOp::create(b, loc(spec.bias.loc),
                                 featuresOf(spec.params.value), "beta");
  // Dynamic Tanh's alpha and Derf's shift: scalars in the params type.
  Value alpha, shift;
  auto scalarOf = [&](dsl::DType t) {
    return RankedTensorType::get({1}, elementType(t));
  };
  if (!spec.hasStatistics()) {
    alpha = norm::ParamOp::create(b, loc(spec.method.loc),
                                  scalarOf(spec.params.value), "alpha",
                                  /*scalar=*/true);
    if (spec.method.value == dsl::Method::Erf)
      shift = norm::ParamOp::create(b, loc(spec.method.loc),
                                    scalarOf(spec.params.value), "shift",
                                    /*scalar=*/true);
  }
  Value staticScale;
  if (spec.quantized() &&
      spec.quantizeScale.value == dsl::QuantizeScale::Static)
    staticScale = norm::InputOp::create(
        b, loc(spec.quantizeScale.loc),
        RankedTensorType::get({1}, b.getF32Type()), "scale");

  // The per-row math of a spec (docs/spec.md).
  if (residual)
    h = norm::ResidualAddOp::create(b, loc(spec.residualAdd.loc),
                                    residual.getType(), h, residual,
                                    TypeAttr::get(acc));
  // h stays what residual_out stores; a gate before the statistics makes
  // what they and y read, in the accumulate type.
  Value normalized = h;
  if (spec.gate.value == dsl::Gate::Before)
    normalized = gate(h, z, acc);
  if (alpha)
    normalized = squash(normalized, alpha, shift);
  auto fraction = b.getF64FloatAttr(spec.fraction.value);
  Value mean, rstd;
  // A corrected mean (two passes): rows whose mean is large against their
  // spread keep their accuracy (docs/numerics.md). A 16-bit accumulate has
  // too few bits for the second pass to gain any.
  bool corrected = acc.isF32() || acc.isF64();
  if (spec.hasStatistics() && spec.center.value)
    mean = norm::MeanOp::create(b, loc(spec.center.loc), stats, normalized,
                                fraction,
                                corrected ? b.getUnitAttr() : UnitAttr());
  if (spec.hasStatistics() && spec.scale.value) {
    auto variance = norm::VarianceAttr::get(
        &ctx, spec.variance.value == dsl::Variance::Unbiased
                  ? norm::Variance::unbiased
                  : norm::Variance::biased);
    Value moment = norm::MomentOp::create(b, loc(spec.scale.loc), stats,
                                          normalized, mean, fraction, variance);
    auto placement = norm::EpsilonPlacementAttr::get(
        &ctx, spec.placement.value == dsl::EpsilonPlacement::OutsideSqrt
                  ? norm::EpsilonPlacement::outside_sqrt
                  : norm::EpsilonPlacement::inside_sqrt);
    rstd =
        norm::RstdOp::create(b, loc(spec.epsilon.loc), stats, moment,
                             b.getF64FloatAttr(spec.epsilon.value), placement);
  }
  TypeAttr rounded;
  if (auto t = spec.normalizedType())
    rounded = TypeAttr::get(elementType(*t));
  // An fp8 output quantizes y unrounded, in the accumulate type, and so
  // does a gate after the statistics, except after the rounding.
  auto accRows = RankedTensorType::get({ShapedType::kDynamic, d}, acc);
  Type yType = spec.quantized() ? accRows : rowsOf(spec.output.value);
  bool gatedAfter = spec.gate.value == dsl::Gate::After ||
                    spec.gate.value == dsl::Gate::AfterRounded;
  Value y = norm::NormalizeOp::create(
      b, loc(spec.output.loc),
      spec.gate.value == dsl::Gate::After ? accRows : yType, normalized, mean,
      rstd, gamma, beta, b.getF64FloatAttr(spec.gainOffset.value), rounded);
  if (gatedAfter)
    y = gate(y, z, cast<RankedTensorType>(yType).getElementType());

  // Outputs, in argument order. Saved statistics are always f32.
  if (spec.quantized())
    y = quantize(y, staticScale);
  else
    norm::OutputOp::create(b, loc(spec.output.loc), "y", y);
  if (residual)
    norm::OutputOp::create(b, loc(spec.residualAdd.loc), "residual_out", h);
  if (spec.saveStats.value) {
    Location saveLoc = loc(spec.saveStats.loc);
    auto asF32 = [&](Value v) -> Value {
      if (v.getType() == f32Stats)
        return v;
      return norm::ConvertOp::create(b, saveLoc, f32Stats, v);
    };
    if (mean)
      norm::OutputOp::create(b, saveLoc, "mean", asF32(mean));
    // Without scaling r = 1 (docs/spec.md, step 3), saved all the same.
    Value r = rstd ? rstd
                   : norm::FillOp::create(b, saveLoc, stats, normalized,
                                          b.getF64FloatAttr(1.0));
    norm::OutputOp::create(b, saveLoc, "rstd", asF32(r));
  }
  return module;
}

Value SpecBuilder::gate(Value v, Value z, Type element) {
  Location at = loc(spec.gate.loc);
  Type acc = elementType(spec.accumulate.value);
  auto type = RankedTensorType::get(
      cast<RankedTensorType>(v.getType()).getShape(), element);
  auto map = norm::MapOp::create(b, at, type, ValueRange{v, z}, ValueRange(),
                                 FloatAttr());
  Block &body = map.getBody().emplaceBlock();
  Value vElement = body.addArgument(
      cast<RankedTensorType>(v.getType()).getElementType(), at);
  Value zElement = body.addArgument(
      cast<RankedTensorType>(z.getType()).getElementType(), at);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&body);
  auto constant = [&](double c) -> Value {
    return arith::ConstantOp::create(b, at, acc, b.getFloatAttr(acc, c));
  };
  // act(z) = z / (1 + exp(-z)) (silu) or 1 / (1 + exp(-z)) (sigmoid), one op
  // per statement so that the IR's order is the source's.
  Value g = norm::buildConvert(b, at, zElement, acc);
  Value zero = constant(0.0);
  Value negated = arith::SubFOp::create(b, at, zero, g);
  Value e = math::ExpOp::create(b, at, negated);
  Value one = constant(1.0);
  Value denominator = arith::AddFOp::create(b, at, one, e);
  Value numerator =
      spec.gateActivation.value == dsl::GateActivation::Silu ? g : one;
  Value act = arith::DivFOp::create(b, at, numerator, denominator);
  Value x = norm::buildConvert(b, at, vElement, acc);
  Value product = arith::MulFOp::create(b, at, x, act);
  norm::YieldOp::create(b, at, norm::buildConvert(b, at, product, element));
  return map;
}

Value SpecBuilder::squash(Value h, Value alpha, Value shift) {
  Location at = loc(spec.method.loc);
  Type acc = elementType(spec.accumulate.value);
  auto rows = cast<RankedTensorType>(h.getType());
  SmallVector<Value> scalars = {alpha};
  if (shift)
    scalars.push_back(shift);
  auto map =
      norm::MapOp::create(b, at, RankedTensorType::get(rows.getShape(), acc),
                          ValueRange{h}, scalars, FloatAttr());
  Block &body = map.getBody().emplaceBlock();
  Value hElement = body.addArgument(rows.getElementType(), at);
  SmallVector<Value> scalarElements;
  for (Value v : scalars)
    scalarElements.push_back(body.addArgument(
        cast<RankedTensorType>(v.getType()).getElementType(), at));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&body);
  Value x = norm::buildConvert(b, at, hElement, acc);
  Value a = norm::buildConvert(b, at, scalarElements[0], acc);
  Value u = arith::MulFOp::create(b, at, a, x);
  Value n;
  if (shift) {
    Value s = norm::buildConvert(b, at, scalarElements[1], acc);
    n = math::ErfOp::create(b, at, arith::AddFOp::create(b, at, u, s));
  } else {
    n = math::TanhOp::create(b, at, u);
  }
  norm::YieldOp::create(b, at, n);
  return map;
}

Value SpecBuilder::quantize(Value y, Value staticScale) {
  Location at = loc(spec.output.loc);
  auto yType = cast<RankedTensorType>(y.getType());
  Type acc = yType.getElementType();
  // Block scales: one per row and group of `block` features.
  std::optional<int64_t> group;
  if (spec.quantizeScale.value == dsl::QuantizeScale::Block)
    group = static_cast<int64_t>(spec.quantizeBlock.value);
  RankedTensorType stats = RankedTensorType::get({ShapedType::kDynamic}, acc);
  if (group) {
    int64_t d = yType.getDimSize(1);
    stats = RankedTensorType::get(
        {ShapedType::kDynamic,
         ShapedType::isDynamic(d) ? d : (d + *group - 1) / *group},
        acc);
  }
  // An elementwise norm.map of `v` (per row, or per row and group).
  auto mapOf = [&](Value v, Type element,
                   llvm::function_ref<Value(Value)> build) -> Value {
    auto type = RankedTensorType::get(stats.getShape(), element);
    bool perRow = type.getRank() == 1;
    auto map =
        norm::MapOp::create(b, at, type, perRow ? ValueRange() : ValueRange{v},
                            perRow ? ValueRange{v} : ValueRange(), FloatAttr());
    Block &body = map.getBody().emplaceBlock();
    Value arg = body.addArgument(acc, at);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&body);
    norm::YieldOp::create(b, at, build(arg));
    return map;
  };
  auto asF32 = [&](Value v) -> Value {
    if (acc.isF32())
      return v;
    if (group)
      return mapOf(v, b.getF32Type(), [&](Value a) {
        return norm::buildConvert(b, at, a, b.getF32Type());
      });
    return norm::ConvertOp::create(
        b, at, RankedTensorType::get({ShapedType::kDynamic}, b.getF32Type()),
        v);
  };
  Value amax = norm::AmaxOp::create(
      b, at, stats, y, group ? b.getI64IntegerAttr(*group) : IntegerAttr());
  Value scale;
  if (staticScale) {
    scale = staticScale;
    if (!acc.isF32())
      scale = norm::ConvertOp::create(b, at, RankedTensorType::get({1}, acc),
                                      staticScale);
  } else {
    // s = amax / FP8_MAX, or 1 for a row (or group) of zeros.
    double max = norm::largestFinite(elementType(spec.output.value));
    scale = mapOf(amax, acc, [&](Value a) -> Value {
      auto constant = [&](double v) -> Value {
        return arith::ConstantOp::create(b, at, acc, b.getFloatAttr(acc, v));
      };
      Value zero = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OEQ, a,
                                         constant(0.0));
      Value ratio = arith::DivFOp::create(b, at, a, constant(max));
      return arith::SelectOp::create(b, at, zero, constant(1.0), ratio);
    });
  }
  Value q = norm::QuantizeOp::create(
      b, at,
      RankedTensorType::get(yType.getShape(), elementType(spec.output.value)),
      y, scale, group ? b.getI64IntegerAttr(*group) : IntegerAttr());
  norm::OutputOp::create(b, at, "y", q);
  if (staticScale)
    norm::OutputOp::create(b, at, "amax", asF32(amax));
  else
    norm::OutputOp::create(b, at, "scale", asF32(scale));
  return q;
}

OwningOpRef<ModuleOp> normc::buildSpecModule(const dsl::Spec &spec,
                                             std::optional<int64_t> d,
                                             MLIRContext &context) {
  return SpecBuilder(spec, context).build(d);
}
