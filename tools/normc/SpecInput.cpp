//===- SpecInput.cpp - Read a spec and report its diagnostics -------------===//
#include "SpecInput.h"

#include "llvm/Support/raw_ostream.h"

std::optional<normc::dsl::Spec> normc::tool::readSpec(const std::string &path) {
  dsl::SpecParseResult result = dsl::parseSpecFile(path);
  for (const dsl::Diagnostic &diag : result.diagnostics)
    llvm::errs() << diag.str() << "\n";
  return std::move(result.spec);
}
