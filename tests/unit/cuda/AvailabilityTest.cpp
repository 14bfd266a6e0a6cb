//===- AvailabilityTest.cpp - Opening the driver, with or without a GPU ---===//
//
// These tests pass on every machine: without libcuda.so.1, with only the
// toolkit's stub library (LD_LIBRARY_PATH=<cuda>/lib64/stubs), and with a
// GPU, where the ones about missing GPUs are skipped.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

#include <atomic>
#include <iostream>
#include <thread>
#include <vector>

using namespace normc::cuda;

namespace {

bool startsWith(const std::string &text, const std::string &prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

/// Runs `body(i)` on `count` threads released together.
template <typename Body> void onThreads(int count, Body body) {
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int i = 0; i < count; ++i)
    threads.emplace_back([&, i] {
      while (!go)
        std::this_thread::yield();
      body(i);
    });
  go = true;
  for (std::thread &thread : threads)
    thread.join();
}

TEST(CudaAvailability, ConcurrentFirstCallsAgree) {
  // When this test runs first in its process, these calls also race to
  // open the driver.
  constexpr int kThreads = 16;
  std::vector<int> results(kThreads);
  std::vector<std::string> reasons(kThreads);
  onThreads(kThreads, [&](int i) { results[i] = available(&reasons[i]); });
  for (int i = 1; i < kThreads; ++i) {
    EXPECT_EQ(results[i], results[0]);
    EXPECT_EQ(reasons[i], reasons[0]);
  }
  EXPECT_EQ(deviceCount() > 0, static_cast<bool>(results[0]));
}

TEST(CudaAvailability, CudaErrorCarriesCodeAndMessage) {
  CudaError error(200, "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_IMAGE");
  EXPECT_EQ(error.code(), 200);
  EXPECT_STREQ(error.what(),
               "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_IMAGE");
}

TEST(CudaAvailability, TimingRejectsBadCountsFirst) {
  int runs = 0;
  auto run = [&] { ++runs; };
  EXPECT_THROW(timeMedianMs(0, run, -1, 5), std::invalid_argument);
  EXPECT_THROW(timeMedianMs(0, run, 3, 0), std::invalid_argument);
  EXPECT_EQ(runs, 0);
}

TEST(CudaUnavailable, SaysWhy) {
  NORMC_REQUIRE_NO_GPU();
  std::string why;
  EXPECT_FALSE(available(&why));
  std::cout << "[          ] CUDA unavailable: " << why << "\n";
  if (startsWith(why, "libcuda.so.1 not found: ")) {
    EXPECT_NE(why.find("libcuda.so.1: cannot open shared object file"),
              std::string::npos)
        << why;
  } else if (why.find("CUDA_ERROR_STUB_LIBRARY") != std::string::npos) {
    EXPECT_TRUE(startsWith(why, "cuInit failed: CUDA_ERROR_STUB_LIBRARY "
                                "(34): "))
        << why;
    EXPECT_NE(why.find("stubs/libcuda.so is the CUDA toolkit's stub library"),
              std::string::npos)
        << why;
  } else {
    // A driver without a usable GPU, e.g. CUDA_ERROR_NO_DEVICE (100).
    EXPECT_TRUE(startsWith(why, "cuInit failed: CUDA_ERROR_")) << why;
  }
  EXPECT_EQ(deviceCount(), 0);
}

TEST(CudaUnavailable, EveryCallThrowsCudaErrorWithTheReason) {
  NORMC_REQUIRE_NO_GPU();
  std::string why;
  available(&why);
  auto expectUnavailable = [&](auto call, const char *what) {
    try {
      call();
      ADD_FAILURE() << what << " did not throw";
    } catch (const CudaError &error) {
      EXPECT_EQ(error.what(), "CUDA is unavailable: " + why) << what;
      if (startsWith(why, "libcuda.so.1 not found"))
        EXPECT_EQ(error.code(), CudaError::kNoDriver) << what;
      else
        EXPECT_GT(error.code(), 0) << what;
    }
  };
  int runs = 0;
  expectUnavailable([] { deviceInfo(); }, "deviceInfo");
  expectUnavailable([] { Module::load(0, "not an image"); }, "Module::load");
  expectUnavailable([] { Buffer(0, 16); }, "Buffer");
  expectUnavailable([] { Buffer(0, 0); }, "empty Buffer");
  expectUnavailable([] { synchronize(); }, "synchronize");
  expectUnavailable([&] { timeMedianMs(0, [&] { ++runs; }); }, "timeMedianMs");
  EXPECT_EQ(runs, 0);
}

TEST(CudaUnavailable, ThreadsGetErrorsNotAborts) {
  NORMC_REQUIRE_NO_GPU();
  std::atomic<int> thrown{0};
  onThreads(8, [&](int i) {
    try {
      Buffer buffer(0, 1024 * (i + 1));
    } catch (const CudaError &) {
      ++thrown;
    }
  });
  EXPECT_EQ(thrown, 8);
}

} // namespace
