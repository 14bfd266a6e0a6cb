//===- ElementTypes.cpp - The IR's element types, by the table's rows -----===//
#include "normc/Dialect/ElementTypes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static void printType(Type type, llvm::SmallVectorImpl<char> &spelling) {
  llvm::raw_svector_ostream os(spelling);
  type.print(os);
}

const normc::ElementType *normc::findElementType(Type type) {
  llvm::SmallString<16> spelling;
  printType(type, spelling);
  for (const ElementType &t : allElementTypes())
    if (t.mlirName == std::string_view(spelling.data(), spelling.size()))
      return &t;
  return nullptr;
}

bool normc::hasElementRole(Type type, unsigned roles) {
  const ElementType *t = findElementType(type);
  return t && t->hasRole(roles);
}

std::string normc::getElementTypeName(Type type) {
  if (const ElementType *t = findElementType(type))
    return std::string(t->name);
  llvm::SmallString<16> spelling;
  printType(type, spelling);
  return spelling.str().str();
}

Type normc::getElementTypeNamed(MLIRContext *context, std::string_view name) {
  const ElementType *t = findElementType(name);
  if (!t)
    return {};
  // Every spelling of the table is one of MLIR's builtin types
  // (Signature.EveryElementTypeIsOneOfMlirsTypes checks that each reads back
  // to its name).
  return parseType(llvm::StringRef(t->mlirName.data(), t->mlirName.size()),
                   context);
}
