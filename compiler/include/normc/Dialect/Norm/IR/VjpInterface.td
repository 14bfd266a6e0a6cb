//===- VjpInterface.td - Vector-Jacobian products of norm ops -*- tablegen -*-===//
#ifndef NORMC_NORM_VJP_INTERFACE
#define NORMC_NORM_VJP_INTERFACE

include "mlir/IR/OpBase.td"

def Norm_VjpOpInterface : OpInterface<"VjpOpInterface"> {
  let cppNamespace = "::normc::norm";
  let description = [{
    The rule that differentiates one op: given the cotangents of its
    results, it adds the contributions of the op to its operands'
    cotangents (the vector-Jacobian product), every rounding treated as the
    identity. `norm-derive-backward` applies the rules in reverse program
    order; no rule knows which normalization it is part of.
  }];
  let methods = [
    InterfaceMethod<[{
        Adds this op's contributions to the cotangents of its operands,
        reading the cotangents of its results from `vjp`.
      }],
      "::mlir::LogicalResult", "buildVjp",
      (ins "::normc::norm::VjpBuilder &":$vjp)>
  ];
}

#endif // NORMC_NORM_VJP_INTERFACE
