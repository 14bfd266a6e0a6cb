//===- CudaSupport.h - The support code every emitted file starts with ----===//
#ifndef NORMC_LIB_TARGET_CUDA_CUDASUPPORT_H
#define NORMC_LIB_TARGET_CUDA_CUDASUPPORT_H

#include "llvm/Support/raw_ostream.h"

namespace normc {
/// Writes the portability macros and the small device library (type
/// conversions, square roots, vector accesses) that emitted kernels call.
void emitCudaSupport(llvm::raw_ostream &os);
} // namespace normc

#endif // NORMC_LIB_TARGET_CUDA_CUDASUPPORT_H
