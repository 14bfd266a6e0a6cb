//===- GpuLaunchTest.cpp - Compile with NVRTC, load, launch, check --------===//
//
// Skipped, with the reason, on machines without a CUDA GPU.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

#include <thread>
#include <vector>

using namespace normc;
using namespace normc::cuda;
using namespace normc::cuda::test;

namespace {

const char *kAxpy = R"(
extern "C" __global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
)";

const char *kReverse = R"(
extern "C" __global__ void reverse(const float *in, float *out, int n) {
  extern __shared__ float tile[];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    tile[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = tile[n - 1 - i];
}
)";

/// Runs y = a * x + y over n floats with small integer values (exact in
/// float) and checks every element.
void checkAxpy(const Function &axpy, float a, int n) {
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1000);
    y[i] = static_cast<float>(3 * (i % 1000));
  }
  Buffer xs(axpy.ordinal(), n * sizeof(float));
  Buffer ys(axpy.ordinal(), n * sizeof(float));
  xs.upload(x.data(), xs.size());
  ys.upload(y.data(), ys.size());
  void *xPointer = xs.get(), *yPointer = ys.get();
  void *args[] = {&a, &xPointer, &yPointer, &n};
  unsigned block = 256;
  launch(axpy, (n + block - 1) / block, block, 0, args);
  std::vector<float> result(n);
  ys.download(result.data(), ys.size());
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(result[i], a * x[i] + y[i]) << "element " << i;
}

TEST(CudaGpu, DeviceInfoIsPlausible) {
  NORMC_REQUIRE_GPU();
  DeviceInfo info = deviceInfo(0);
  std::cout << "[          ] " << info.name << ", " << info.arch() << ", "
            << info.smCount << " SMs, L2 " << info.l2Bytes << " B, driver "
            << info.driverVersion << "\n";
  EXPECT_GE(deviceCount(), 1);
  EXPECT_FALSE(info.name.empty());
  EXPECT_GE(info.ccMajor, 7);
  EXPECT_EQ(info.arch(), "sm_" + std::to_string(info.ccMajor) +
                             std::to_string(info.ccMinor));
  EXPECT_GT(info.smCount, 0);
  EXPECT_GT(info.l2Bytes, 0u);
  EXPECT_GT(info.totalBytes, info.l2Bytes);
  EXPECT_GE(info.sharedPerBlockOptin, 48u * 1024);
  EXPECT_GE(info.maxThreadsPerBlock, 1024);
  EXPECT_GE(info.driverVersion, 11000);
}

TEST(CudaGpu, LaunchesCubin) {
  NORMC_REQUIRE_GPU();
  Module module =
      Module::load(0, compileForDevice(kAxpy, nvrtc::Target::Cubin));
  checkAxpy(module.function("axpy"), 2.0f, 1000);
}

TEST(CudaGpu, LaunchesPtxCompiledByTheDriver) {
  NORMC_REQUIRE_GPU();
  Module module = Module::load(0, compileForDevice(kAxpy, nvrtc::Target::Ptx));
  checkAxpy(module.function("axpy"), -3.0f, 4096 + 7);
}

TEST(CudaGpu, FunctionKeepsItsModuleLoaded) {
  NORMC_REQUIRE_GPU();
  Function axpy = Module::load(0, compileForDevice(kAxpy, nvrtc::Target::Cubin))
                      .function("axpy");
  EXPECT_EQ(axpy.name(), "axpy");
  checkAxpy(axpy, 0.5f, 512);
}

TEST(CudaGpu, DynamicSharedAbove48KiBNeedsOptIn) {
  NORMC_REQUIRE_GPU();
  const int n = 16 * 1024; // 64 KiB of floats
  const size_t shared = n * sizeof(float);
  if (deviceInfo(0).sharedPerBlockOptin < shared)
    GTEST_SKIP() << "the device offers less than 64 KiB of shared memory";
  Module module =
      Module::load(0, compileForDevice(kReverse, nvrtc::Target::Cubin));
  Function reverse = module.function("reverse");

  std::vector<float> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = static_cast<float>(i);
  Buffer input(0, shared), output(0, shared);
  input.upload(in.data(), shared);
  output.fill(0xff);
  void *inPointer = input.get(), *outPointer = output.get();
  int count = n;
  void *args[] = {&inPointer, &outPointer, &count};
  try {
    launch(reverse, 1, 1024, shared, args);
    ADD_FAILURE() << "a launch with 64 KiB of dynamic shared memory and no "
                     "opt-in succeeded";
  } catch (const CudaError &error) {
    EXPECT_NE(error.code(), 0);
    EXPECT_NE(std::string(error.what())
                  .find("cuLaunchKernel(reverse, grid 1, "
                        "block 1024, 65536 B dynamic "
                        "shared) failed: CUDA_ERROR_"),
              std::string::npos)
        << error.what();
  }

  reverse.setMaxDynamicShared(shared);
  launch(reverse, 1, 1024, shared, args);
  std::vector<float> out(n);
  output.download(out.data(), shared);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[i], in[n - 1 - i]) << "element " << i;
}

TEST(CudaGpu, HostThreadsLaunchConcurrently) {
  NORMC_REQUIRE_GPU();
  std::string cubin = compileForDevice(kAxpy, nvrtc::Target::Cubin);
  Module shared = Module::load(0, cubin);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      // Fresh threads have no current context: every call must set it.
      try {
        Module own = Module::load(0, cubin);
        for (int i = 0; i < 20; ++i) {
          const Module &module = i % 2 ? own : shared;
          checkAxpy(module.function("axpy"), static_cast<float>(t), 3000);
        }
      } catch (const std::exception &error) {
        ADD_FAILURE() << "thread " << t << ": " << error.what();
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  synchronize(0);
}

} // namespace
