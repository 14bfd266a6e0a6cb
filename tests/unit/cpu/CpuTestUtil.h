//===- CpuTestUtil.h - Helpers for the CPU device's unit tests ------------===//
//
// Test kernels are written like emitted files: the NORMC_* portability
// macros with their CUDA definitions under #ifndef NORMC_CPU, the kernel,
// and a normc_cpu_entry_<kernel> trampoline per kernel.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_TESTS_UNIT_CPU_CPUTESTUTIL_H
#define NORMC_TESTS_UNIT_CPU_CPUTESTUTIL_H

#include "normc/Runtime/Cpu/CpuDevice.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace normc {
namespace cpu {
namespace test {

/// What an emitted file starts with: the GPU side of the portability layer.
inline const char *kPreamble = R"(
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#ifndef NORMC_CPU
#define NORMC_KERNEL(threads, name) \
  extern "C" __global__ void __launch_bounds__(threads) name
#define NORMC_STATIC_SHARED(T, name, count) __shared__ __align__(16) T name[count]
#define NORMC_DYNAMIC_SHARED(name) \
  extern __shared__ __align__(16) unsigned char name[]
#endif
)";

/// A cache shared by the tests of all runs ($NORMC_CACHE_DIR if set), so
/// that reruns do not recompile.
inline std::string testCacheDir() {
  const char *dir = std::getenv("NORMC_CACHE_DIR");
  return dir && *dir ? dir : ::testing::TempDir() + "normc-cpu-tests-cache";
}

/// Compiles `body` after the preamble and returns its kernel `name`.
inline CpuKernel
compileKernel(const std::string &body, const std::string &name,
              const std::vector<std::string> &extraFlags = {}) {
  CompileOptions options;
  options.cacheDir = testCacheDir();
  options.extraFlags = extraFlags;
  return CpuModule::compile(kPreamble + body, options).kernel(name);
}

inline LaunchOptions withOrder(LaneOrder order, unsigned hostThreads = 1) {
  LaunchOptions options;
  options.laneOrder = order;
  options.seed = 12345;
  options.hostThreads = hostThreads;
  return options;
}

inline const char *orderName(LaneOrder order) {
  switch (order) {
  case LaneOrder::Forward:
    return "forward";
  case LaneOrder::Reverse:
    return "reverse";
  case LaneOrder::Random:
    return "random";
  case LaneOrder::RunAhead:
    return "run-ahead";
  }
  return "?";
}

constexpr LaneOrder kAllOrders[] = {LaneOrder::Forward, LaneOrder::Reverse,
                                    LaneOrder::Random, LaneOrder::RunAhead};

/// Host-side bfloat16 for inputs and references: round to nearest even,
/// NaN kept quiet.
inline std::uint16_t bf16FromFloat(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<std::uint16_t>((bits >> 16) | 0x40);
  bits += 0x7fffu + ((bits >> 16) & 1);
  return static_cast<std::uint16_t>(bits >> 16);
}

inline float floatFromBf16(std::uint16_t value) {
  std::uint32_t bits = std::uint32_t(value) << 16;
  float result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

/// For EXPECT_TRUE: whether `text` contains `part`, showing both if not.
inline ::testing::AssertionResult contains(const std::string &text,
                                           const std::string &part) {
  if (text.find(part) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "expected to find\n  " << part << "\nin\n  " << text;
}

/// Runs `launchIt` and returns the CpuLaunchError message ("" if none).
template <class F> std::string launchError(F launchIt) {
  try {
    launchIt();
  } catch (const CpuLaunchError &e) {
    return e.what();
  }
  return "";
}

} // namespace test
} // namespace cpu
} // namespace normc

#endif // NORMC_TESTS_UNIT_CPU_CPUTESTUTIL_H
