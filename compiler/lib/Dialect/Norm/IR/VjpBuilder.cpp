//===- VjpBuilder.cpp - Helpers the VJP rules build norm.map with ---------===//
#include "normc/Dialect/Norm/IR/VjpBuilder.h"
#include "normc/Dialect/Norm/IR/NormOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"

using namespace mlir;
using namespace normc::norm;

Value VjpBuilder::map(Location loc, ValueRange inputs, ValueRange stats,
                      bool rows, Body body, std::optional<double> fraction,
                      Type element) {
  if (!element)
    element = acc;
  auto shapeOf = [](Value v) { return cast<RankedTensorType>(v.getType()); };
  // Per row: the rows' dimension, whatever the first operand is (a scalar
  // has one element for every row).
  auto result = rows ? RankedTensorType::get(rowsShape(), element)
                     : RankedTensorType::get({rowsShape()[0]}, element);
  auto op = MapOp::create(
      b, loc, result, inputs, stats,
      fraction && *fraction < 1.0 ? b.getF64FloatAttr(*fraction) : FloatAttr());
  Block &block = op.getBody().emplaceBlock();
  for (Value v : op.getOperands())
    block.addArgument(shapeOf(v).getElementType(), loc);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&block);
    YieldOp::create(b, loc,
                    buildConvert(b, loc, body(block.getArguments()), element));
  }
  // A body may compute more than it yields (a derivative's reverse sweep
  // reaches every operand); what it does not yield is dropped.
  SmallVector<Operation *> ops;
  for (Operation &inner : block.without_terminator())
    ops.push_back(&inner);
  for (Operation *inner : llvm::reverse(ops))
    if (isOpTriviallyDead(inner))
      inner->erase();
  llvm::BitVector unused(block.getNumArguments());
  for (BlockArgument arg : block.getArguments())
    if (arg.use_empty())
      unused.set(arg.getArgNumber());
  if (unused.none())
    return op;
  SmallVector<Value> usedInputs, usedStats;
  for (auto [i, v] : llvm::enumerate(inputs))
    if (!unused[i])
      usedInputs.push_back(v);
  for (auto [i, v] : llvm::enumerate(stats))
    if (!unused[inputs.size() + i])
      usedStats.push_back(v);
  auto slim = MapOp::create(b, loc, result, usedInputs, usedStats,
                            op.getFractionAttr());
  slim.getBody().takeBody(op.getBody());
  slim.getBody().front().eraseArguments(unused);
  op.erase();
  return slim;
}

Value VjpBuilder::toAcc(Location loc, Value v) {
  return buildConvert(b, loc, v, acc);
}

Value VjpBuilder::constant(Location loc, double value) {
  return arith::ConstantOp::create(b, loc, acc, b.getFloatAttr(acc, value));
}

Value VjpBuilder::count(Location loc, double fraction) {
  return CountOp::create(b, loc, acc, b.getF64FloatAttr(fraction));
}
