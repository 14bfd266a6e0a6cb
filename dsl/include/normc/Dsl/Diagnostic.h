//===- Diagnostic.h - Source positions and compiler-style messages -------===//
//
// Every message normc prints about a user's file has the form compilers use:
//   FILE:LINE:COL: error: MESSAGE
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_DSL_DIAGNOSTIC_H
#define NORMC_DSL_DIAGNOSTIC_H

#include <string>
#include <string_view>
#include <vector>

namespace normc::dsl {

/// A position in a spec file; line and column are 1-based, 0 means unknown.
struct SourceLoc {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
};

enum class Severity { Error, Warning, Note };

/// "error", "warning" or "note", as printed in diagnostics.
std::string_view toString(Severity s);

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceLoc loc;
  std::string message;

  /// "FILE:LINE:COL: error: MESSAGE" (the position part shrinks when unknown).
  std::string str() const;
};

/// True when any diagnostic in the list is an error.
bool hasErrors(const std::vector<Diagnostic> &diags);

} // namespace normc::dsl

#endif // NORMC_DSL_DIAGNOSTIC_H
