//===- SpecReader.h - Fill a Spec from a parsed TOML document -------------===//
//
// Checks each key on its own: known name, TOML type, allowed value or range.
// Rules that relate several keys are in SpecChecks.h.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_DSL_LIB_SPECREADER_H
#define NORMC_DSL_LIB_SPECREADER_H

#include "normc/Dsl/Spec.h"

#include <toml++/toml.h>

#include <string_view>
#include <vector>

namespace normc::dsl::detail {

/// Fills `spec` from `root`, the document parsed from `text`; diagnostics
/// are positioned in `spec.file`. A key that is absent or fails a check
/// keeps its default value and unknown position.
void readSpec(const toml::table &root, std::string_view text, Spec &spec,
              std::vector<Diagnostic> &diags);

} // namespace normc::dsl::detail

#endif // NORMC_DSL_LIB_SPECREADER_H
