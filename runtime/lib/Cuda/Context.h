//===- Context.h - Each device's primary context, current per thread ------===//
//
// Private to runtime/lib/Cuda. Every public call makes its device's primary
// context current first, since the calling host thread may never have used
// CUDA or may have last used another device.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_LIB_CUDA_CONTEXT_H
#define NORMC_RUNTIME_LIB_CUDA_CONTEXT_H

namespace normc::cuda::detail {

/// Makes the primary context of device `ordinal` current on this thread,
/// retaining it on first use; it stays retained until the process exits.
/// Throws CudaError.
void makeCurrent(int ordinal);

/// makeCurrent for destructors: false instead of an exception.
bool tryMakeCurrent(int ordinal) noexcept;

} // namespace normc::cuda::detail

#endif // NORMC_RUNTIME_LIB_CUDA_CONTEXT_H
