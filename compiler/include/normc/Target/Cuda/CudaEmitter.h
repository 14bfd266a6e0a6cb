//===- CudaEmitter.h - Translate sched.kernel ops to CUDA C++ -------------===//
//
// The emitter turns each scheduled `sched.kernel` into one readable
// `extern "C" __global__` function. The same source compiles with NVRTC for
// the GPU and, with NORMC_CPU defined, with the host compiler for the CPU
// device (a trampoline `normc_cpu_entry_<kernel>(void **args)` per kernel).
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_TARGET_CUDA_CUDAEMITTER_H
#define NORMC_TARGET_CUDA_CUDAEMITTER_H

#include "normc/Dialect/Sched/IR/SchedOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace normc {

/// One kernel parameter, in order.
struct KernelParam {
  enum class Kind { Rows, RowStride, Features, Stats, RowCount, Cols };
  Kind kind;
  std::string name;        // "x", "x_stride", "rows", "d"
  std::string elementType; // "bf16", "f32", ... (empty for the integers)
  bool written = false;
};

/// What a host needs to launch an emitted kernel.
struct KernelLaunchInfo {
  std::string name;
  std::optional<int64_t> cols;
  int64_t blockSize = 0;   // blockDim.x
  int64_t rowsPerBlock = 0;
  int64_t vectorWidth = 0;
  /// Bytes per element of each row kept in dynamic shared memory.
  std::vector<int64_t> sharedRowElementBytes;
  std::vector<KernelParam> params;

  /// gridDim.x that covers `rows` rows; any smaller grid is also correct
  /// (blocks stride over row groups).
  int64_t gridFor(int64_t rows) const;
  /// Dynamic shared memory in bytes for hidden size d.
  int64_t dynamicSharedBytes(int64_t d) const;
};

/// Facts about a scheduled kernel without emitting it.
mlir::FailureOr<KernelLaunchInfo> getLaunchInfo(sched::KernelOp kernel);

/// Emits every `sched.kernel` in `module`; each must have a schedule.
/// Errors are reported as MLIR diagnostics on the offending op.
mlir::LogicalResult emitCuda(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace normc

#endif // NORMC_TARGET_CUDA_CUDAEMITTER_H
