//===- CudaEmitter.h - Translate kern.kernel ops to CUDA C++ --------------===//
//
// The emitter turns each `kern.kernel` into one readable
// `extern "C" __global__` function. The same source compiles with NVRTC for
// the GPU and, with NORMC_CPU defined, with the host compiler for the CPU
// device (a trampoline `normc_cpu_entry_<kernel>(void **args)` per kernel).
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_TARGET_CUDA_CUDAEMITTER_H
#define NORMC_TARGET_CUDA_CUDAEMITTER_H

#include "normc/Dialect/Kern/IR/KernOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace normc {

/// Emits every `kern.kernel` in `module`, in launch order (a module with a
/// row-level `sched.kernel` left is an error).
/// Errors are reported as MLIR diagnostics on the offending op.
mlir::LogicalResult emitCuda(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace normc

#endif // NORMC_TARGET_CUDA_CUDAEMITTER_H
