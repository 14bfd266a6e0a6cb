//===- Context.cpp - Each device's primary context, current per thread ----===//

#include "Context.h"
#include "Driver.h"

#include <mutex>
#include <unordered_map>

using namespace normc::cuda;
using namespace normc::cuda::detail;

namespace {

struct Contexts {
  std::mutex mutex;
  std::unordered_map<int, CUcontext> byOrdinal;
};

/// Never freed, like the driver state: static objects' destructors may
/// still free device memory during exit.
Contexts &contexts() {
  static Contexts *const all = new Contexts;
  return *all;
}

} // namespace

void detail::makeCurrent(int ordinal) {
  const Api &driver = api();
  Contexts &all = contexts();
  CUcontext context = nullptr;
  {
    std::lock_guard<std::mutex> lock(all.mutex);
    auto it = all.byOrdinal.find(ordinal);
    if (it == all.byOrdinal.end()) {
      CUdevice device = 0;
      check(driver.cuDeviceGet(&device, ordinal),
            "cuDeviceGet(" + std::to_string(ordinal) + ")");
      check(driver.cuDevicePrimaryCtxRetain(&context, device),
            "cuDevicePrimaryCtxRetain(" + std::to_string(ordinal) + ")");
      it = all.byOrdinal.emplace(ordinal, context).first;
    }
    context = it->second;
  }
  check(driver.cuCtxSetCurrent(context), "cuCtxSetCurrent");
}

bool detail::tryMakeCurrent(int ordinal) noexcept {
  try {
    makeCurrent(ordinal);
    return true;
  } catch (...) {
    return false;
  }
}
