//===- SpecRunner.h - Compile a spec and run it on host arrays ------------===//
//
// The one-call path used by `normc run` and the numerics tests: the spec's
// kernel is emitted, compiled for the CPU device (cached on disk), and run
// on inputs given as doubles, which are first rounded to the spec's storage
// types. Outputs come back as doubles.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_RUNTIME_SPECRUNNER_H
#define NORMC_RUNTIME_SPECRUNNER_H

#include "normc/Abi/KernelInfo.h"
#include "normc/Dsl/Spec.h"
#include "normc/Frontend/Pipeline.h"
#include "normc/Runtime/CpuDevice.h"

#include <cstdint>
#include <string>
#include <vector>

namespace normc {

struct RunInputs {
  int64_t rows = 0;
  int64_t d = 0;
  const double *x = nullptr;        // [rows, xStride]
  const double *residual = nullptr; // [rows, residualStride]
  const double *gamma = nullptr;    // [d]
  const double *beta = nullptr;     // [d]
  int64_t xStride = 0;              // 0: d
  int64_t residualStride = 0;       // 0: d
};

struct RunOutputs {
  std::vector<double> y, residualOut; // [rows, d]
  std::vector<double> mean, rstd;     // [rows]
};

struct RunOptions {
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
/// device's message, inputs missing for the spec). Outputs the kernel does
/// not write come back as NaN.
RunOutputs runSpecOnCpu(const dsl::Spec &spec, const RunInputs &inputs,
                        const RunOptions &options = {});

/// Runs an already compiled kernel of `spec` (options.schedule, specialize,
/// compile and mutateSource do not apply).
RunOutputs runKernelOnCpu(const dsl::Spec &spec, const KernelLaunchInfo &info,
                          const cpu::CpuKernel &kernel, const RunInputs &inputs,
                          const RunOptions &options = {});

} // namespace normc

#endif // NORMC_RUNTIME_SPECRUNNER_H
