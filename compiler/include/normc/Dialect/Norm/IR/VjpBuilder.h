//===- VjpBuilder.h - What a VJP rule reads and writes -------*- C++ -*-===//
//
// A rule (VjpOpInterface::buildVjp) sees the forward op it differentiates;
// through a VjpBuilder it reads the values of the forward computation in the
// backward one and the cotangents of the op's results, and adds cotangents
// to its operands. norm-derive-backward implements the bookkeeping; the
// helpers that build norm.map bodies are shared by every rule.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_DIALECT_NORM_IR_VJPBUILDER_H
#define NORMC_DIALECT_NORM_IR_VJPBUILDER_H

#include "mlir/IR/Builders.h"

#include <optional>

namespace normc::norm {

class VjpBuilder {
public:
  /// `rows` is the [rows, d] shape of the spec's activations.
  VjpBuilder(mlir::OpBuilder &builder, mlir::Type accumulate,
             llvm::ArrayRef<int64_t> rows)
      : b(builder), acc(accumulate), activations(rows) {}
  virtual ~VjpBuilder() = default;

  mlir::OpBuilder &builder() { return b; }
  /// The element type every cotangent is computed in.
  mlir::Type accumulateType() const { return acc; }

  /// The value of forward value `v` in the backward computation.
  virtual mlir::Value primal(mlir::Value v) = 0;
  /// The cotangent of forward value `v`, of v's shape; null when no
  /// gradient reaches v. Its elements may be of any float type (the seeds
  /// dy and dresidual_out are read in their storage types).
  virtual mlir::Value cotangent(mlir::Value v) = 0;
  /// Adds `contribution` to the cotangent of `v`. A [rows, d] contribution
  /// to a per-row value is summed over the features, and to a per-feature
  /// value over the rows: the transpose of the broadcast that uses it.
  virtual void accumulate(mlir::Value v, mlir::Value contribution) = 0;

  /// The body of a map: the operands' elements in, one element out.
  using Body = llvm::function_ref<mlir::Value(mlir::ValueRange elements)>;
  /// A norm.map with elements of type `element` (default: the accumulate
  /// type): [rows, d] when `rows`, else per row. `inputs` are [rows, d] or
  /// [d] values, `stats` per-row ones; the body's arguments are their
  /// elements in that order, and what it returns is converted to `element`.
  /// Ops of the body whose results nothing uses are dropped, then the
  /// operands the body does not use.
  /// With `fraction` only the first k features are computed, the others are
  /// 0.
  mlir::Value map(mlir::Location loc, mlir::ValueRange inputs,
                  mlir::ValueRange stats, bool rows, Body body,
                  std::optional<double> fraction = std::nullopt,
                  mlir::Type element = {});
  /// Inside a body: `v` converted to the accumulate type, a constant in it,
  /// and k = max(1, floor(fraction * d)) in it.
  mlir::Value toAcc(mlir::Location loc, mlir::Value v);
  mlir::Value constant(mlir::Location loc, double value);
  mlir::Value count(mlir::Location loc, double fraction);
  /// The [rows, d] shape of the spec's activations.
  llvm::ArrayRef<int64_t> rowsShape() const { return activations; }

private:
  mlir::OpBuilder &b;
  mlir::Type acc;
  llvm::SmallVector<int64_t, 2> activations;
};

} // namespace normc::norm

#endif // NORMC_DIALECT_NORM_IR_VJPBUILDER_H
