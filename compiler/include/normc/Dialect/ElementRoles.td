//===- ElementRoles.td - Element types by their role -------*- tablegen -*-===//
//
// The dialects' element-type constraints, read from the element-type table
// (normc/Abi/ElementType.h) through normc/Dialect/ElementTypes.h: a type is
// allowed where the table gives it the role, so a new format is one row.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_ELEMENT_ROLES
#define NORMC_ELEMENT_ROLES

include "mlir/IR/OpBase.td"

// A type of the table with any of `roles` (ElementType::Role bits).
class Normc_ElementWithRole<string roles, string summary>
    : Type<CPred<"::normc::hasElementRole($_self, " # roles # ")">, summary>;

// What rows and parameters are stored as.
def Normc_StorageElement
    : Normc_ElementWithRole<"::normc::ElementType::Storage",
                            "storage element type">;
// What arithmetic, statistics and the sums between kernels use.
def Normc_AccumulateElement
    : Normc_ElementWithRole<"::normc::ElementType::Accumulate",
                            "accumulate element type">;
// What an output is quantized to with a scale (docs/fp8.md).
def Normc_QuantizedElement
    : Normc_ElementWithRole<"::normc::ElementType::Quantized",
                            "quantized element type">;

#endif // NORMC_ELEMENT_ROLES
