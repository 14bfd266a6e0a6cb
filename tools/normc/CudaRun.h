//===- CudaRun.h - normc run on a CUDA GPU through the runtime API --------===//
#ifndef NORMC_TOOLS_NORMC_CUDARUN_H
#define NORMC_TOOLS_NORMC_CUDARUN_H

#include "normc/Runtime/SpecRunner.h"

namespace normc::tool {
/// The CUDA counterpart of runSpecOnCpu: uploads the inputs rounded to the
/// spec's types, runs the tuned kernels of the program (Norm::forward or
/// Norm::backward), downloads the outputs. Throws
/// normc::Error (e.g. when no GPU can be used).
RunOutputs runSpecOnCuda(const std::string &specPath, const dsl::Spec &spec,
                         const RunInputs &inputs, const Program &program);
} // namespace normc::tool

#endif // NORMC_TOOLS_NORMC_CUDARUN_H
