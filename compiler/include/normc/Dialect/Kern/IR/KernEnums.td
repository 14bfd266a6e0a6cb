//===- KernEnums.td - Enumerations of the kern dialect -----*- tablegen -*-===//
#ifndef NORMC_KERN_ENUMS
#define NORMC_KERN_ENUMS

include "mlir/IR/EnumAttr.td"

def Kern_TileOrder : I32EnumAttr<"TileOrder",
    "the order of a tile's two lowest stages of the tree", [
      // Pairwise over the features of each thread's vector, then the
      // butterfly across lanes: the lowest feature index bits first, the
      // tree of reproducible mode.
      I32EnumAttrCase<"vector_then_lanes", 0>,
      // The butterfly across lanes for each element of the vector, then
      // pairwise over the vector: another tree, which depends on the
      // vector width.
      I32EnumAttrCase<"lanes_then_vector", 1>
    ]> {
  let cppNamespace = "::normc::kern";
}

#endif // NORMC_KERN_ENUMS
