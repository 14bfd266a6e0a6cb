//===- Device.cpp - Device queries and synchronization --------------------===//

#include "Context.h"
#include "Driver.h"

using namespace normc::cuda;
using namespace normc::cuda::detail;

int normc::cuda::deviceCount() {
  int count = 0;
  if (!available() || api().cuDeviceGetCount(&count) != CUDA_SUCCESS)
    return 0;
  return count;
}

DeviceInfo normc::cuda::deviceInfo(int ordinal) {
  const Api &driver = api();
  CUdevice device = 0;
  check(driver.cuDeviceGet(&device, ordinal),
        "cuDeviceGet(" + std::to_string(ordinal) + ")");
  auto attribute = [&](CUdevice_attribute which) {
    int value = 0;
    check(driver.cuDeviceGetAttribute(&value, which, device),
          "cuDeviceGetAttribute(" + std::to_string(which) + ")");
    return value;
  };

  DeviceInfo info;
  info.ordinal = ordinal;
  char name[256] = {};
  check(driver.cuDeviceGetName(name, sizeof(name), device), "cuDeviceGetName");
  info.name = name;
  info.ccMajor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  info.ccMinor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  info.smCount = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  info.l2Bytes = attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  check(driver.cuDeviceTotalMem(&info.totalBytes, device), "cuDeviceTotalMem");
  info.sharedPerBlockOptin =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  info.maxThreadsPerBlock =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  check(driver.cuDriverGetVersion(&info.driverVersion), "cuDriverGetVersion");
  return info;
}

std::string DeviceInfo::arch() const {
  return "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor);
}

void normc::cuda::synchronize(int ordinal) {
  makeCurrent(ordinal);
  check(api().cuCtxSynchronize(), "cuCtxSynchronize");
}
