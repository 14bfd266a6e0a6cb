//===- AsyncCopyTest.cpp - Asynchronous copies on the CPU device ----------===//
//
// NORMC_ASYNC_COPY (cp.async on the GPU) lands only when the thread waits
// (normc_async_wait): a read before the wait sees what shared memory held,
// and a thread that ends with copies in flight fails the launch, so a
// missing wait fails a test the way a missing __syncthreads does.
//
//===----------------------------------------------------------------------===//

#include "CpuTestUtil.h"

#include <cmath>

using namespace normc::cpu;
using namespace normc::cpu::test;

namespace {

/// `k(in, out)`: each thread copies its 4 floats of in (one row a block)
/// into shared memory asynchronously, runs `wait`, and writes back twice
/// what it reads there. With `twice`, it does it for a second row into
/// the same place.
std::string stage(const std::string &wait, bool twice = false) {
  return R"(
NORMC_KERNEL(32, k)(const float *__restrict__ in, float *__restrict__ out) {
  NORMC_DYNAMIC_SHARED(smem);
  float *row = reinterpret_cast<float *>(smem);
  unsigned t = threadIdx.x;
  for (int r = 0; r < )" +
         std::string(twice ? "2" : "1") + R"(; ++r) {
    const float *src = in + (blockIdx.x * 2 + r) * 128 + 4 * t;
    NORMC_ASYNC_COPY(row + 4 * t, src, 16);
)" + wait +
         R"(
    for (int e = 0; e < 4; ++e)
      out[(blockIdx.x * 2 + r) * 128 + 4 * t + e] = 2 * row[4 * t + e];
  }
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_k(void **args) {
  NORMC_CPU_KERNEL(k)(*reinterpret_cast<const float *const *>(args[0]),
                      *reinterpret_cast<float *const *>(args[1]));
}
#endif
)";
}

constexpr unsigned kBlocks = 3, kRowFloats = 128;

/// Runs the kernel; the error of the launch, or "" with `out` filled.
std::string run(const std::string &source, std::vector<float> &out) {
  CpuKernel kernel = compileKernel(source, "k");
  std::vector<float> in(kBlocks * 2 * kRowFloats);
  for (unsigned i = 0; i < in.size(); ++i)
    in[i] = static_cast<float>(i);
  out.assign(in.size(), -1.0f);
  const float *inPtr = in.data();
  float *outPtr = out.data();
  void *args[] = {&inPtr, &outPtr};
  return launchError([&] {
    launch(kernel, Dim3{kBlocks}, Dim3{32}, kRowFloats * sizeof(float), args,
           withOrder(LaneOrder::Random, 2));
  });
}

TEST(AsyncCopyTest, CopiesLandAtTheWait) {
  std::vector<float> out;
  ASSERT_EQ(run(stage("    normc_async_wait();", true), out), "");
  for (unsigned i = 0; i < out.size(); ++i)
    ASSERT_EQ(out[i], 2.0f * i) << "float " << i;
}

TEST(AsyncCopyTest, AReadBeforeTheWaitSeesTheOldContents) {
  // The first row reads fresh shared memory (NaN), the second the first
  // row's values; the waits come after the reads.
  std::string source = stage("", true);
  size_t end = source.find("  }\n}");
  source.insert(end, "    normc_async_wait();\n");
  std::vector<float> out;
  ASSERT_EQ(run(source, out), "");
  for (unsigned b = 0; b < kBlocks; ++b)
    for (unsigned f = 0; f < kRowFloats; ++f) {
      unsigned first = b * 2 * kRowFloats + f;
      ASSERT_TRUE(std::isnan(out[first])) << "float " << first;
      ASSERT_EQ(out[first + kRowFloats], 2.0f * first);
    }
}

TEST(AsyncCopyTest, ExitingWithCopiesInFlightFailsTheLaunch) {
  std::vector<float> out;
  std::string error = run(stage(""), out);
  EXPECT_TRUE(contains(error, "kernel 'k', block (")) << error;
  EXPECT_TRUE(contains(error, "1 asynchronous copies never waited for"))
      << error;
  EXPECT_TRUE(contains(error, "a missing normc_async_wait")) << error;
}

TEST(AsyncCopyTest, CopiesGoOnlyToTheBlocksSharedMemory) {
  std::string source = stage("    normc_async_wait();");
  size_t at = source.find("NORMC_ASYNC_COPY(row + 4 * t");
  source.replace(at, std::string("NORMC_ASYNC_COPY(row + 4 * t").size(),
                 "NORMC_ASYNC_COPY(out + 4 * t");
  std::vector<float> out;
  std::string error = run(source, out);
  EXPECT_TRUE(contains(error, "asynchronous copy to memory that is not its "
                              "block's shared memory"))
      << error;
}

} // namespace
