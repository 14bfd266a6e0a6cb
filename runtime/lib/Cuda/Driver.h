//===- Driver.h - The driver's functions, resolved with dlsym -------------===//
//
// Private to runtime/lib/Cuda. The table holds one pointer per driver
// function this library calls, typed by the prototype in the toolkit's
// cuda.h. Member and symbol names go through cuda.h's macros, so that a
// member declared from `cuMemAlloc` is named and resolved as
// `cuMemAlloc_v2`: the symbol dlsym finds is always the one whose prototype
// the pointer has. (cuGetProcAddress would need a working cuInit first and
// a CUDA version per call; the stub library's cuInit never works.)
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_LIB_CUDA_DRIVER_H
#define NORMC_RUNTIME_LIB_CUDA_DRIVER_H

#include "normc/Runtime/Cuda/CudaDriver.h"

#include <cuda.h>

#include <string>

namespace normc::cuda::detail {

// Every driver function used, by its name in the CUDA documentation.
#define NORMC_CUDA_FUNCTIONS(X)                                                \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceTotalMem)                                                          \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncSetAttribute)                                                        \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemsetD8)                                                                \
  X(cuMemsetD8Async)                                                           \
  X(cuLaunchKernel)                                                            \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)

/// The resolved functions; call them as `api.cuMemAlloc(...)`.
struct Api {
#define NORMC_CUDA_DECLARE(fn) decltype(&::fn) fn = nullptr;
  NORMC_CUDA_FUNCTIONS(NORMC_CUDA_DECLARE)
#undef NORMC_CUDA_DECLARE
};

/// The driver table; throws CudaError (the cuInit result, or kNoDriver)
/// when available() is false.
const Api &api();

/// "NAME (code): text" from cuGetErrorName/cuGetErrorString.
std::string describe(CUresult result);

/// Throws CudaError "<call> failed: <describe(result)>" unless `result` is
/// CUDA_SUCCESS.
void check(CUresult result, const std::string &call);

} // namespace normc::cuda::detail

#endif // NORMC_RUNTIME_LIB_CUDA_DRIVER_H
