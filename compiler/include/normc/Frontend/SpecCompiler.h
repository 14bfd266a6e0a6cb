//===- SpecCompiler.h - From a spec to CUDA source in one call ------------===//
#ifndef NORMC_FRONTEND_SPECCOMPILER_H
#define NORMC_FRONTEND_SPECCOMPILER_H

#include "normc/Dsl/Spec.h"
#include "normc/Frontend/Pipeline.h"
#include "normc/Abi/KernelInfo.h"
#include "normc/Runtime/Pack.h"
#include "normc/Abi/Schedule.h"

#include <optional>
#include <string>

namespace normc {

/// The CUDA source of one spec's kernel and how to launch it.
struct EmittedKernel {
  std::string source;
  KernelLaunchInfo info;
};

/// Runs the whole pipeline (spec → norm → sched → CUDA) in a context of its
/// own, so several threads may call it at once. On failure returns nullopt
/// and appends the diagnostics, one per line, to `errors`.
std::optional<EmittedKernel> emitSpecKernel(const dsl::Spec &spec,
                                            std::optional<int64_t> cols,
                                            const ScheduleOptions &schedule,
                                            std::string &errors);

/// d and the widest row or feature element of the spec's kernel.
ScheduleProblem getScheduleProblem(const dsl::Spec &spec,
                                   std::optional<int64_t> cols);

/// The kernel of every schedule candidate (scheduleCandidates), for a
/// kernel pack. Candidates the compiler rejects are left out; nullopt when
/// none is left.
std::optional<Pack> buildPack(const dsl::Spec &spec,
                              std::optional<int64_t> cols, std::string &errors);

} // namespace normc

#endif // NORMC_FRONTEND_SPECCOMPILER_H
