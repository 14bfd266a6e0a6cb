//===- SharedMemoryTest.cpp - Static and dynamic shared memory ------------===//

#include "CpuTestUtil.h"

#include <cmath>
#include <vector>

using namespace normc::cpu;
using namespace normc::cpu::test;

namespace {

/// Reads each shared word before writing it: must be NaN in every block.
const char *kReadBeforeWrite = R"(
NORMC_KERNEL(64, read_first)(float *__restrict__ out) {
  NORMC_STATIC_SHARED(float, fixed, 64);
  NORMC_DYNAMIC_SHARED(smem);
  float *dynamic = reinterpret_cast<float *>(smem);
  unsigned tid = threadIdx.x, i = blockIdx.x * 2 * blockDim.x + tid;
  out[i] = fixed[tid];
  out[i + blockDim.x] = dynamic[tid];
  fixed[tid] = 1.0f;
  dynamic[tid] = 2.0f;
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_read_first(void **args) {
  NORMC_CPU_KERNEL(read_first)(*reinterpret_cast<float *const *>(args[0]));
}
#endif
)";

TEST(SharedMemoryTest, ReadBeforeWriteIsNaNInEveryBlock) {
  CpuKernel kernel = compileKernel(kReadBeforeWrite, "read_first");
  for (unsigned hostThreads : {1u, 2u}) {
    std::vector<float> out(4 * 2 * 64, 0.0f);
    float *outPtr = out.data();
    void *args[] = {&outPtr};
    launch(kernel, Dim3{4}, Dim3{64}, 64 * sizeof(float), args,
           withOrder(LaneOrder::Forward, hostThreads));
    for (unsigned i = 0; i < out.size(); ++i)
      ASSERT_TRUE(std::isnan(out[i])) << "word " << i << ": " << out[i];
  }
}

/// Thread 0 fills the static and dynamic arrays; everyone reads them back.
const char *kSharedAcrossTheBlock = R"(
NORMC_KERNEL(128, broadcast)(float *__restrict__ out, int n) {
  NORMC_STATIC_SHARED(double, first, 3);
  NORMC_STATIC_SHARED(float, second, 5);
  NORMC_DYNAMIC_SHARED(smem);
  int *dynamic = reinterpret_cast<int *>(smem);
  unsigned tid = threadIdx.x;
  if (tid == 0) {
    first[2] = 0.5;
    second[4] = 0.25f;
    for (int i = 0; i < n; ++i)
      dynamic[i] = i;
  }
  __syncthreads();
  out[tid] = static_cast<float>(first[2]) + second[4] + dynamic[tid % n] +
             (reinterpret_cast<unsigned long>(second) % 16 == 0 ? 0 : 100);
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_broadcast(void **args) {
  NORMC_CPU_KERNEL(broadcast)(*reinterpret_cast<float *const *>(args[0]),
            *reinterpret_cast<const int *>(args[1]));
}
#endif
)";

TEST(SharedMemoryTest, ArraysAreSharedAndAligned) {
  CpuKernel kernel = compileKernel(kSharedAcrossTheBlock, "broadcast");
  std::vector<float> out(128);
  float *outPtr = out.data();
  int n = 10;
  void *args[] = {&outPtr, &n};
  for (LaneOrder order : kAllOrders) {
    launch(kernel, Dim3{1}, Dim3{128}, n * sizeof(int), args, withOrder(order));
    for (unsigned i = 0; i < out.size(); ++i)
      ASSERT_EQ(out[i], 0.75f + i % n) << i << ", " << orderName(order);
  }
}

std::string declarationError(const std::string &declarations) {
  CpuKernel kernel = compileKernel(R"(
NORMC_KERNEL(64, declare)(float *__restrict__ out) {
  unsigned tid = threadIdx.x;
  float v = 0.0f;
)" + declarations + R"(
  out[tid] = v;
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_declare(void **args) {
  NORMC_CPU_KERNEL(declare)(*reinterpret_cast<float *const *>(args[0]));
}
#endif
)",
                                   "declare");
  std::vector<float> out(64);
  float *outPtr = out.data();
  void *args[] = {&outPtr};
  return launchError([&] {
    launch(kernel, Dim3{1}, Dim3{64}, 0, args, withOrder(LaneOrder::Forward));
  });
}

TEST(SharedMemoryTest, DivergentDeclarationsFail) {
  std::string error = declarationError(R"(
  NORMC_STATIC_SHARED(float, a, 4);
  if (tid == 3) {
    NORMC_STATIC_SHARED(float, b, 8);
    b[0] = 1.0f;
  }
  NORMC_STATIC_SHARED(float, c, 8);
  c[tid % 8] = a[0];
)");
  EXPECT_TRUE(contains(error, "thread 3 (warp 0, lane 3) declares shared "
                              "array #1"));
  EXPECT_TRUE(contains(error, "all threads of a block must declare the same "
                              "shared arrays"));
}

TEST(SharedMemoryTest, OversizedStaticSharedFails) {
  std::string error = declarationError(R"(
  NORMC_STATIC_SHARED(float, big, 20000);
  v = big[0];
)");
  EXPECT_TRUE(contains(error, "beyond the limit of 49152 bytes"));
}

TEST(SharedMemoryTest, OversizedDynamicSharedIsRejected) {
  CpuKernel kernel = compileKernel(kReadBeforeWrite, "read_first");
  void *args[] = {nullptr};
  EXPECT_TRUE(contains(
      launchError([&] { launch(kernel, Dim3{1}, Dim3{64}, 300 * 1024, args); }),
      "dynamic shared memory exceed"));
}

} // namespace
