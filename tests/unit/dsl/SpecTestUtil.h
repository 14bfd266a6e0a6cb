//===- SpecTestUtil.h - Helpers shared by the spec unit tests -------------===//
//
// Parse a spec from a string and look at its diagnostics as the printed
// lines a user would see.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_TESTS_UNIT_DSL_SPECTESTUTIL_H
#define NORMC_TESTS_UNIT_DSL_SPECTESTUTIL_H

#include "normc/Dsl/Spec.h"

#include <string>
#include <vector>

namespace normc::dsl::test {

/// The file name every in-memory spec in these tests is parsed under.
inline const std::string kFile = "t.toml";

inline SpecParseResult parse(std::string_view text) {
  return parseSpecString(text, kFile);
}

/// Each diagnostic as printed: "t.toml:LINE:COL: error: MESSAGE".
inline std::vector<std::string> messages(const SpecParseResult &r) {
  std::vector<std::string> out;
  for (const Diagnostic &d : r.diagnostics)
    out.push_back(d.str());
  return out;
}

} // namespace normc::dsl::test

#endif // NORMC_TESTS_UNIT_DSL_SPECTESTUTIL_H
