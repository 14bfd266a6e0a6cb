//===- ElementTypes.h - The IR's element types, by the table's rows -------===//
//
// The IR holds element types as MLIR's builtin types; the element-type
// table (normc/Abi/ElementType.h) names each, gives its MLIR spelling and
// says what it may be used for, so the spelling both ways and every
// dialect's type constraints (ElementRoles.td) follow from the table.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_DIALECT_ELEMENTTYPES_H
#define NORMC_DIALECT_ELEMENTTYPES_H

#include "normc/Abi/ElementType.h"

#include "mlir/IR/Types.h"

#include <string>
#include <string_view>

namespace normc {

/// The table's row of an MLIR type; null for a type the table lacks.
const ElementType *findElementType(mlir::Type type);

/// Whether `type` is one of the table's types with any of the `roles`
/// (ElementType::Role bits).
bool hasElementRole(mlir::Type type, unsigned roles);

/// The table's name of an MLIR type ("bf16", "f8e4m3"), as KernelParam and
/// specs spell it; MLIR's own spelling for a type the table lacks.
std::string getElementTypeName(mlir::Type type);

/// The MLIR type the table names `name`; null for a name it lacks.
mlir::Type getElementTypeNamed(mlir::MLIRContext *context,
                               std::string_view name);

} // namespace normc

#endif // NORMC_DIALECT_ELEMENTTYPES_H
