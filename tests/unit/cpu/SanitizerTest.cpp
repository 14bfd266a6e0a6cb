//===- SanitizerTest.cpp - Kernels under AddressSanitizer -----------------===//
//
// Built into normc-numerics-sanitized, whose process is built with
// -fsanitize=address (a sanitized kernel only loads into a sanitized
// process); it fails anywhere else. Checks that fiber switches are announced
// (no false reports) and that shared-memory overruns are caught.
//
//===----------------------------------------------------------------------===//

#include "CpuTestUtil.h"

#include <vector>

using namespace normc::cpu;
using namespace normc::cpu::test;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAsan = true;
#else
constexpr bool kAsan = false;
#endif

const std::vector<std::string> kSanitize = {"-g",
                                            "-fsanitize=address,undefined"};

/// Sums over the block through shared memory; `reach` words past the
/// block's data are read from the dynamic (or static) array.
std::string overrunSource(const std::string &array) {
  return R"(
NORMC_KERNEL(64, overrun)(float *__restrict__ out, int reach) {
  NORMC_STATIC_SHARED(float, fixed, 64);
  NORMC_DYNAMIC_SHARED(smem);
  float *dynamic = reinterpret_cast<float *>(smem);
  unsigned tid = threadIdx.x;
  fixed[tid] = dynamic[tid] = 1.0f;
  __syncthreads();
  float sum = 0.0f;
  for (int i = 0; i < 64 + reach; ++i)
    sum += )" +
         array +
         R"([i];
  out[tid] = sum;
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_overrun(void **args) {
  NORMC_CPU_KERNEL(overrun)(*reinterpret_cast<float *const *>(args[0]),
          *reinterpret_cast<const int *>(args[1]));
}
#endif
)";
}

void runOverrun(const CpuKernel &kernel, int reach) {
  std::vector<float> out(64);
  float *outPtr = out.data();
  void *args[] = {&outPtr, &reach};
  launch(kernel, Dim3{4}, Dim3{64}, 64 * sizeof(float), args,
         withOrder(LaneOrder::Random, 2));
  for (float v : out)
    ASSERT_EQ(v, 64.0f);
}

TEST(SanitizerDeathTest, CleanKernelRunsAndOverrunsAreCaught) {
  ASSERT_TRUE(kAsan) << "needs the tests built with -fsanitize=address";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  CpuKernel dynamicOverrun =
      compileKernel(overrunSource("dynamic"), "overrun", kSanitize);
  CpuKernel staticOverrun =
      compileKernel(overrunSource("fixed"), "overrun", kSanitize);
  runOverrun(dynamicOverrun, 0);
  runOverrun(staticOverrun, 0);
  EXPECT_DEATH(runOverrun(dynamicOverrun, 1), "heap-buffer-overflow");
  EXPECT_DEATH(runOverrun(staticOverrun, 1), "use-after-poison");
}

} // namespace
