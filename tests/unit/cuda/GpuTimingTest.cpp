//===- GpuTimingTest.cpp - timeMedianMs on a copy kernel ------------------===//
//
// Skipped, with the reason, on machines without a CUDA GPU.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

#include <cmath>

using namespace normc;
using namespace normc::cuda;
using namespace normc::cuda::test;

namespace {

const char *kCopy = R"(
extern "C" __global__ void copy(const float4 *in, float4 *out, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
       i += (long)gridDim.x * blockDim.x)
    out[i] = in[i];
}
)";

TEST(CudaGpuTiming, TimesACopyKernel) {
  NORMC_REQUIRE_GPU();
  DeviceInfo info = deviceInfo(0);
  Module module =
      Module::load(0, compileForDevice(kCopy, nvrtc::Target::Cubin));
  Function copy = module.function("copy");
  const size_t bytes = 256u << 20;
  Buffer in(0, bytes), out(0, bytes);
  in.fill(1);
  void *inPointer = in.get(), *outPointer = out.get();
  long vectors = static_cast<long>(bytes / 16);
  void *args[] = {&inPointer, &outPointer, &vectors};
  int runs = 0;
  double ms = timeMedianMs(
      0,
      [&] {
        ++runs;
        launch(copy, info.smCount * 8, 256, 0, args);
      },
      2, 9);
  EXPECT_EQ(runs, 11);
  ASSERT_TRUE(std::isfinite(ms));
  // Bytes read plus written; any GPU lies far inside these bounds.
  double terabytesPerSecond = 2.0 * bytes / (ms * 1e-3) / 1e12;
  std::cout << "[          ] copy of " << (bytes >> 20) << " MiB: " << ms
            << " ms, " << terabytesPerSecond << " TB/s\n";
  EXPECT_GT(terabytesPerSecond, 0.01);
  EXPECT_LT(terabytesPerSecond, 20.0);
}

TEST(CudaGpuTiming, PropagatesWhatRunThrows) {
  NORMC_REQUIRE_GPU();
  EXPECT_THROW(timeMedianMs(0, [] { throw std::runtime_error("bad run"); }),
               std::runtime_error);
  double ms = timeMedianMs(
      0, [] {}, 0, 1);
  EXPECT_GE(ms, 0.0);
}

} // namespace
