//===- SpecCompiler.h - From a spec to CUDA source ------------------------===//
#ifndef NORMC_FRONTEND_SPECCOMPILER_H
#define NORMC_FRONTEND_SPECCOMPILER_H

#include "normc/Abi/KernelInfo.h"
#include "normc/Abi/Schedule.h"
#include "normc/Dsl/Spec.h"
#include "normc/Frontend/Pipeline.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace normc {

/// The CUDA source of one spec's kernel and how to launch it.
struct EmittedKernel {
  std::string source;
  KernelLaunchInfo info;
};

/// The CUDA source of a module and its kernels, in launch order.
struct EmittedModule {
  std::string source;
  std::vector<KernelLaunchInfo> kernels;
};

/// A spec lowered once to row-level IR, in a context of its own; each
/// emit() clones that module, schedules it, lowers it to loops and prints
/// it, so that trying many schedules runs the front end once. emit() may be
/// called from several threads (calls are serialized).
class SpecCompilation {
public:
  /// Nullopt (and the diagnostics, one per line, appended to `errors`) when
  /// the spec does not lower. `program` picks the forward (one kernel) or
  /// the backward (a kernel and, for dgamma/dbeta, one that finishes their
  /// sums).
  static std::unique_ptr<SpecCompilation>
  create(const dsl::Spec &spec, std::optional<int64_t> d, std::string &errors,
         const Program &program = Program::forward());
  ~SpecCompilation();

  /// Every kernel of the program for `schedule`, in launch order. `symbol`,
  /// when given, replaces the spec's name at the front of the kernels'
  /// names, so that the kernels of several schedules can share one source.
  std::optional<EmittedModule> emitModule(const ScheduleOptions &schedule,
                                          std::string &errors,
                                          const std::string &symbol = "") const;
  /// emitModule of a program of one kernel (the forward).
  std::optional<EmittedKernel> emit(const ScheduleOptions &schedule,
                                    std::string &errors,
                                    const std::string &symbol = "") const;

  /// d and the widest row or feature element of the spec's kernel.
  const ScheduleProblem &problem() const { return scheduleProblem; }

private:
  friend std::optional<EmittedModule> emitIRFile(const std::string &path,
                                                 std::string &errors);
  SpecCompilation();
  struct State;
  std::unique_ptr<State> state;
  ScheduleProblem scheduleProblem;
  mutable std::mutex mutex;
};

/// SpecCompilation::create and emit in one call.
std::optional<EmittedKernel> emitSpecKernel(const dsl::Spec &spec,
                                            std::optional<int64_t> d,
                                            const ScheduleOptions &schedule,
                                            std::string &errors);

/// The kernels of a .mlir file at any level (its schedules as they are, the
/// heuristic's where none is set), with diagnostics as FILE:LINE:COL.
std::optional<EmittedModule> emitIRFile(const std::string &path,
                                        std::string &errors);

} // namespace normc

#endif // NORMC_FRONTEND_SPECCOMPILER_H
