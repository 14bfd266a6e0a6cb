//===- Module.cpp - Loaded images, their kernels, and launches ------------===//

#include "Context.h"
#include "Driver.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>

using namespace normc::cuda;
using namespace normc::cuda::detail;

Module::Module(int ordinal, std::shared_ptr<void> module)
    : device(ordinal), module(std::move(module)) {}

Module Module::load(int ordinal, const std::string &image) {
  makeCurrent(ordinal);
  // The JIT's error log says why PTX did not compile.
  char log[8192] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, reinterpret_cast<void *>(uintptr_t{sizeof(log)})};
  CUmodule module = nullptr;
  CUresult result =
      api().cuModuleLoadDataEx(&module, image.c_str(), 2, options, values);
  if (result != CUDA_SUCCESS) {
    std::string message = "cuModuleLoadDataEx failed: " + describe(result);
    if (log[0])
      message += "\n" + std::string(log, strnlen(log, sizeof(log)));
    throw CudaError(result, message);
  }
  return Module(ordinal, std::shared_ptr<void>(module, [ordinal](void *m) {
                  if (tryMakeCurrent(ordinal))
                    api().cuModuleUnload(static_cast<CUmodule>(m));
                }));
}

Function Module::function(const std::string &name) const {
  makeCurrent(device);
  CUfunction function = nullptr;
  check(api().cuModuleGetFunction(
            &function, static_cast<CUmodule>(module.get()), name.c_str()),
        "cuModuleGetFunction(\"" + name + "\")");
  return Function(device, name, function, module);
}

Function::Function(int ordinal, std::string name, void *function,
                   std::shared_ptr<void> module)
    : device(ordinal), kernelName(std::move(name)), function(function),
      module(std::move(module)) {}

void Function::setMaxDynamicShared(size_t bytes) const {
  makeCurrent(device);
  // Sizes beyond int reach the driver as INT_MAX, which it rejects.
  int value = static_cast<int>(std::min<size_t>(bytes, INT_MAX));
  check(api().cuFuncSetAttribute(
            static_cast<CUfunction>(function),
            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, value),
        "cuFuncSetAttribute(" + kernelName + ", max dynamic shared " +
            std::to_string(bytes) + " B)");
}

void normc::cuda::launch(const Function &f, unsigned grid, unsigned block,
                         size_t dynamicShared, void **args, Stream stream) {
  makeCurrent(f.ordinal());
  unsigned shared =
      static_cast<unsigned>(std::min<size_t>(dynamicShared, UINT_MAX));
  check(api().cuLaunchKernel(static_cast<CUfunction>(f.handle()), grid, 1, 1,
                             block, 1, 1, shared, static_cast<CUstream>(stream),
                             args, nullptr),
        "cuLaunchKernel(" + f.name() + ", grid " + std::to_string(grid) +
            ", block " + std::to_string(block) + ", " +
            std::to_string(dynamicShared) + " B dynamic shared)");
}
