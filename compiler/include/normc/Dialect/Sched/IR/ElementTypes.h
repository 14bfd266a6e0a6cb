//===- ElementTypes.h - The IR's element types, by the table's names ------===//
//
// The IR holds element types as MLIR's builtin types; the element-type
// table (normc/Abi/ElementType.h) names each and gives its MLIR spelling,
// so both directions follow from the table.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_DIALECT_SCHED_IR_ELEMENTTYPES_H
#define NORMC_DIALECT_SCHED_IR_ELEMENTTYPES_H

#include "mlir/IR/Types.h"

#include <string>
#include <string_view>

namespace normc {

/// The table's name of an MLIR type ("bf16", "f8e4m3"), as KernelParam and
/// specs spell it; MLIR's own spelling for a type the table lacks.
std::string getElementTypeName(mlir::Type type);

/// The MLIR type the table names `name`; null for a name it lacks.
mlir::Type getElementTypeNamed(mlir::MLIRContext *context,
                               std::string_view name);

} // namespace normc

#endif // NORMC_DIALECT_SCHED_IR_ELEMENTTYPES_H
