//===- Passes.td - Conversions between normc dialects ------*- tablegen -*-===//
#ifndef NORMC_CONVERSION_PASSES
#define NORMC_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertNormToSched : Pass<"convert-norm-to-sched", "mlir::ModuleOp"> {
  let summary = "Lower each norm.spec to a sched.kernel";
  let description = [{
    Turns the tensor dataflow of a spec into the row program of a kernel:
    buffers in ABI order, row loads and stores, row reductions, and the
    per-row scalar math (mean, variance divisor, epsilon placement) as
    `arith`/`math` ops. The schedule is left unset; `sched-assign-schedule`
    chooses it.
  }];
  let dependentDialects = ["::normc::sched::SchedDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif // NORMC_CONVERSION_PASSES
