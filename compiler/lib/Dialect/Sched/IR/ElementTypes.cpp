//===- ElementTypes.cpp - The IR's element types, by the table's names ----===//
#include "normc/Dialect/Sched/IR/ElementTypes.h"
#include "normc/Abi/ElementType.h"

#include "mlir/AsmParser/AsmParser.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string normc::getElementTypeName(Type type) {
  std::string mlirName;
  llvm::raw_string_ostream os(mlirName);
  type.print(os);
  for (const ElementType &t : allElementTypes())
    if (t.mlirName == mlirName)
      return std::string(t.name);
  return mlirName;
}

Type normc::getElementTypeNamed(MLIRContext *context, std::string_view name) {
  std::optional<ElementType> t = elementTypeNamed(name);
  if (!t)
    return {};
  // Every spelling of the table is one of MLIR's builtin types
  // (Signature.EveryElementTypeIsOneOfMlirsTypes checks that each reads back
  // to its name).
  return parseType(llvm::StringRef(t->mlirName.data(), t->mlirName.size()),
                   context);
}
