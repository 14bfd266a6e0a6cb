//===- NormDialect.td - The spec-level normalization dialect -*- tablegen -*-===//
//
// The `norm` dialect says *what* a normalization computes, nothing about how
// it is mapped onto a GPU. One `norm.spec` op holds the dataflow of one spec:
// inputs, statistics over a feature range, the reciprocal standard deviation
// with its epsilon placement, the affine output, and the stored results.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_NORM_DIALECT
#define NORMC_NORM_DIALECT

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Norm_Dialect : Dialect {
  let name = "norm";
  let summary = "Spec-level dialect: what a normalization layer computes";
  let description = [{
    Values are tensors: `tensor<?xDxT>` for row-major activations
    (rows x features), `tensor<DxT>` for per-feature parameters and
    `tensor<?xA>` for per-row statistics in the accumulate type A.
  }];
  let cppNamespace = "::normc::norm";
}

class Norm_Op<string mnemonic, list<Trait> traits = []>
    : Op<Norm_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Norm_Variance : I32EnumAttr<"Variance",
    "divisor of the centered second moment", [
      I32EnumAttrCase<"biased", 0>,
      I32EnumAttrCase<"unbiased", 1>
    ]> {
  let cppNamespace = "::normc::norm";
}

def Norm_EpsilonPlacement : I32EnumAttr<"EpsilonPlacement",
    "where epsilon is added relative to the square root", [
      I32EnumAttrCase<"inside_sqrt", 0>,
      I32EnumAttrCase<"outside_sqrt", 1>
    ]> {
  let cppNamespace = "::normc::norm";
}

#endif // NORMC_NORM_DIALECT
