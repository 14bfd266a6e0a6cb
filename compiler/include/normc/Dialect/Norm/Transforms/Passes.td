//===- Passes.td - Transformations of the norm dialect -----*- tablegen -*-===//
#ifndef NORMC_NORM_TRANSFORMS_PASSES
#define NORMC_NORM_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def NormDeriveBackward : Pass<"norm-derive-backward", "mlir::ModuleOp"> {
  let summary = "Replace each norm.spec by its backward computation";
  let description = [{
    Builds `norm.spec @NAME_backward` from `norm.spec @NAME` by applying the
    vector-Jacobian rule of each op (VjpOpInterface) in reverse order, for
    the loss L = sum(dy * y) + sum(dresidual_out * residual_out) (see
    docs/backward.md). The backward spec reads x (and residual), the parameters,
    dy (in the output type) and, with `saved-stats`, the forward's saved
    statistics; it recomputes whatever else it needs and stores
    `dx` in the input type (and `dresidual` in the residual's) and
    `dgamma`, `dbeta` (norm.sum_rows) in the params type. Nothing here knows a norm kind.
  }];
  let options = [
    Option<"savedStats", "saved-stats", "bool", "false",
           "Read the forward's saved mean and rstd (f32) instead of "
           "recomputing them">,
    Option<"dresidualOut", "dresidual-out", "bool", "false",
           "With residual_add, also read the gradient arriving at "
           "residual_out">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif // NORMC_NORM_TRANSFORMS_PASSES
