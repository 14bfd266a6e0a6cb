//===- SpecRunner.h - Compile a spec and run it on host arrays ------------===//
//
// The one-call path used by `normc run` and the numerics tests: the spec's
// kernels (forward or backward) are emitted, compiled for the CPU device
// (cached on disk), and run on inputs given as doubles, which are first rounded
// to the spec's storage types. Outputs come back as doubles.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_RUNTIME_SPECRUNNER_H
#define NORMC_RUNTIME_SPECRUNNER_H

#include "normc/Abi/KernelInfo.h"
#include "normc/Abi/Program.h"
#include "normc/Dsl/Spec.h"
#include "normc/Frontend/Pipeline.h"
#include "normc/Runtime/Api/HostRun.h"
#include "normc/Runtime/Cpu/CpuDevice.h"

#include <cstdint>
#include <string>
#include <vector>

namespace normc {

struct RunOptions {
  /// The forward, or the backward and what it reads.
  Program program;
  /// Specialize the kernel for d (else d is a run-time argument).
  bool specialize = true;
  ScheduleOptions schedule;
  cpu::LaunchOptions launch;
  cpu::CompileOptions compile;
  /// Shift every device buffer by this many elements from a 16-byte
  /// boundary, to exercise the kernels' narrow-load fallback.
  int misalignElements = 0;
  /// Edits the emitted source before it is compiled (mutation tests).
  std::string (*mutateSource)(const std::string &) = nullptr;
};

/// Throws std::runtime_error (compile errors, launch errors with the CPU
/// device's message, inputs missing for the spec). Output elements the
/// kernels do not write come back as NaN.
RunOutputs runSpecOnCpu(const dsl::Spec &spec, const RunInputs &inputs,
                        const RunOptions &options = {});

/// Runs the already compiled kernels of `spec`, in launch order
/// (options.program, schedule, specialize, compile and mutateSource do not
/// apply).
RunOutputs runModuleOnCpu(const dsl::Spec &spec,
                          const std::vector<KernelLaunchInfo> &kernels,
                          const cpu::CpuModule &module, const RunInputs &inputs,
                          const RunOptions &options = {});

} // namespace normc

#endif // NORMC_RUNTIME_SPECRUNNER_H
