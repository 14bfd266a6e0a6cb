//===- CudaTestUtil.h - Shared helpers of the CUDA driver tests -----------===//
#ifndef NORMC_TESTS_UNIT_CUDA_CUDATESTUTIL_H
#define NORMC_TESTS_UNIT_CUDA_CUDATESTUTIL_H

#include "normc/Runtime/Cuda/CudaDriver.h"
#include "normc/Runtime/Nvrtc/Nvrtc.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

/// Skips the test, with the driver's reason, unless a CUDA GPU can be used.
#define NORMC_REQUIRE_GPU()                                                    \
  do {                                                                         \
    std::string why;                                                           \
    if (!normc::cuda::available(&why))                                         \
      GTEST_SKIP() << "no CUDA GPU: " << why;                                  \
  } while (false)

/// Skips the test when a CUDA GPU can be used: it checks behaviour without.
#define NORMC_REQUIRE_NO_GPU()                                                 \
  do {                                                                         \
    if (normc::cuda::available())                                              \
      GTEST_SKIP() << "a CUDA GPU is present";                                 \
  } while (false)

namespace normc::cuda::test {

/// `source` compiled by NVRTC for device 0; throws with NVRTC's log.
inline std::string compileForDevice(const std::string &source,
                                    nvrtc::Target target) {
  nvrtc::Options options;
  options.arch = deviceInfo(0).arch();
  options.target = target;
  nvrtc::Result result = nvrtc::compile(source, "test.cu", options);
  if (!result.ok)
    throw std::runtime_error("NVRTC failed for " + options.arch + ": " +
                             result.error + "\n" + result.log);
  return result.binary;
}

} // namespace normc::cuda::test

#endif // NORMC_TESTS_UNIT_CUDA_CUDATESTUTIL_H
