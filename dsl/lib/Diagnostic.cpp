//===- Diagnostic.cpp - Compiler-style diagnostic messages ----------------===//
//
// Renders diagnostics as "FILE:LINE:COL: SEVERITY: MESSAGE", dropping the
// parts of the position that are unknown.
//
//===----------------------------------------------------------------------===//
#include "normc/Dsl/Diagnostic.h"
#include "normc/Abi/Printable.h"

#include <algorithm>

namespace normc::dsl {

std::string_view toString(Severity s) {
  switch (s) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "error";
}

std::string Diagnostic::str() const {
  // What a user wrote (a file name, a key, a string) is echoed escaped.
  std::string out = printable(loc.file);
  if (loc.line != 0) {
    if (!out.empty())
      out += ':';
    out += std::to_string(loc.line);
    if (loc.column != 0)
      out += ':' + std::to_string(loc.column);
  }
  if (!out.empty())
    out += ": ";
  out += toString(severity);
  out += ": ";
  out += printable(message);
  return out;
}

bool hasErrors(const std::vector<Diagnostic> &diags) {
  return std::any_of(diags.begin(), diags.end(), [](const Diagnostic &d) {
    return d.severity == Severity::Error;
  });
}

} // namespace normc::dsl
