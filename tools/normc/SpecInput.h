//===- SpecInput.h - Read a spec and report its diagnostics ---------------===//
#ifndef NORMC_TOOLS_NORMC_SPECINPUT_H
#define NORMC_TOOLS_NORMC_SPECINPUT_H

#include "normc/Dsl/Spec.h"

#include <optional>

namespace normc::tool {
/// Parses and validates a spec file, printing every diagnostic to stderr.
std::optional<dsl::Spec> readSpec(const std::string &path);
} // namespace normc::tool

#endif // NORMC_TOOLS_NORMC_SPECINPUT_H
