//===- Driver.cpp - Opening libcuda and reporting its errors --------------===//
//
// The driver is opened, resolved and initialized once per process (a
// function-local static, so concurrent first calls wait for one another).
// Its state is never freed: device memory and modules held by static objects
// are released during exit, after ordinary statics would be gone.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include <dlfcn.h>
#include <link.h>

using namespace normc::cuda;
using namespace normc::cuda::detail;

// Expands a cuda.h macro before quoting it: cuMemAlloc -> "cuMemAlloc_v2".
#define NORMC_CUDA_QUOTE(x) #x
#define NORMC_CUDA_SYMBOL(x) NORMC_CUDA_QUOTE(x)

CudaError::CudaError(int code, const std::string &message)
    : std::runtime_error(message), result(code) {}

namespace {

/// What opening the driver gave.
struct Driver {
  Api api;
  bool usable = false;
  int code = CudaError::kNoDriver;
  std::string why;
};

std::string errorText(const Api &api, CUresult result) {
  std::string code = std::to_string(result);
  const char *name = nullptr;
  if (!api.cuGetErrorName || api.cuGetErrorName(result, &name) != CUDA_SUCCESS)
    return "CUDA error " + code;
  const char *text = nullptr;
  if (api.cuGetErrorString(result, &text) != CUDA_SUCCESS)
    return std::string(name) + " (" + code + ")";
  return std::string(name) + " (" + code + "): " + text;
}

/// The file the dynamic loader opened, for messages.
std::string pathOf(void *library) {
  link_map *map = nullptr;
  if (dlinfo(library, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name &&
      *map->l_name)
    return map->l_name;
  return "libcuda";
}

template <typename Pointer>
bool resolve(void *library, const char *symbol, Pointer &slot,
             std::string &why) {
  slot = reinterpret_cast<Pointer>(dlsym(library, symbol));
  if (slot)
    return true;
  why = pathOf(library) + " has no " + symbol + " (a driver older than CUDA " +
        std::to_string(CUDA_VERSION / 1000) + "." +
        std::to_string(CUDA_VERSION % 1000 / 10) + "?)";
  return false;
}

void open(Driver &driver) {
  // Drivers install libcuda.so.1. libcuda.so, the development link, is also
  // where a toolkit's stub library is found; cuInit then tells it apart.
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    std::string error = dlerror();
    library = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      driver.why = "libcuda.so.1 not found: " + error;
      return;
    }
  }
#define NORMC_CUDA_RESOLVE(fn)                                                 \
  if (!resolve(library, NORMC_CUDA_SYMBOL(fn), driver.api.fn, driver.why))     \
    return;
  NORMC_CUDA_FUNCTIONS(NORMC_CUDA_RESOLVE)
#undef NORMC_CUDA_RESOLVE

  CUresult result = driver.api.cuInit(0);
  if (result == CUDA_ERROR_STUB_LIBRARY) {
    // The stub answers every call, cuGetErrorName included, with this code.
    driver.code = result;
    driver.why =
        "cuInit failed: CUDA_ERROR_STUB_LIBRARY (34): " + pathOf(library) +
        " is the CUDA toolkit's stub library, not a GPU driver";
  } else if (result != CUDA_SUCCESS) {
    driver.code = result;
    driver.why = "cuInit failed: " + errorText(driver.api, result);
  } else {
    driver.usable = true;
  }
}

const Driver &driver() {
  static const Driver *const opened = [] {
    auto *driver = new Driver;
    open(*driver);
    return driver;
  }();
  return *opened;
}

} // namespace

bool normc::cuda::available(std::string *why) {
  const Driver &opened = driver();
  if (!opened.usable && why)
    *why = opened.why;
  return opened.usable;
}

const Api &detail::api() {
  const Driver &opened = driver();
  if (!opened.usable)
    throw CudaError(opened.code, "CUDA is unavailable: " + opened.why);
  return opened.api;
}

std::string detail::describe(CUresult result) {
  return errorText(driver().api, result);
}

void detail::check(CUresult result, const std::string &call) {
  if (result != CUDA_SUCCESS)
    throw CudaError(result, call + " failed: " + describe(result));
}
