//===- BuildPack.h - Compile every schedule candidate into a pack ---------===//
#ifndef NORMC_RUNTIME_BUILDPACK_H
#define NORMC_RUNTIME_BUILDPACK_H

#include "normc/Dsl/Spec.h"
#include "normc/Runtime/Host/Pack.h"

#include <optional>
#include <string>

namespace normc {

/// The kernel of every schedule candidate (scheduleCandidates), for a
/// kernel pack; the spec is lowered once. Candidates the compiler rejects
/// are left out and their errors appended to `errors`; nullopt when none is
/// left. `arch` (an SM version such as 90, 0 for any) adds the candidates
/// only that architecture runs (clusters on 90).
std::optional<Pack> buildPack(const dsl::Spec &spec, std::optional<int64_t> d,
                              std::string &errors, int arch = 0);

} // namespace normc

#endif // NORMC_RUNTIME_BUILDPACK_H
