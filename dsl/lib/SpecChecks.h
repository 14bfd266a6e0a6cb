//===- SpecChecks.h - Rules relating several spec keys --------------------===//
//
// The combinations docs/spec.md rejects, and the legal but risky ones normc
// warns about.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_DSL_LIB_SPECCHECKS_H
#define NORMC_DSL_LIB_SPECCHECKS_H

#include "normc/Dsl/Spec.h"

#include <vector>

namespace normc::dsl::detail {

/// Checks `spec` as filled by readSpec. Keys that failed to read hold their
/// defaults, which never trigger a rule, except the required `center`: a
/// rule that involves it only runs when it was read (has a position).
void checkSpec(const Spec &spec, std::vector<Diagnostic> &diags);

} // namespace normc::dsl::detail

#endif // NORMC_DSL_LIB_SPECCHECKS_H
