//===- GpuErrorsTest.cpp - Driver failures become CudaError messages ------===//
//
// Skipped, with the reason, on machines without a CUDA GPU. None of these
// errors is sticky: the device stays usable after each.
//
//===----------------------------------------------------------------------===//

#include "CudaTestUtil.h"

#include <cuda.h>

using namespace normc;
using namespace normc::cuda;
using namespace normc::cuda::test;

namespace {

/// The CudaError that `call` throws, or a failure.
template <typename Call> CudaError errorOf(Call call) {
  try {
    call();
  } catch (const CudaError &error) {
    return error;
  }
  ADD_FAILURE() << "no CudaError thrown";
  return CudaError(CUDA_SUCCESS, "");
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

TEST(CudaGpuErrors, InvalidImage) {
  NORMC_REQUIRE_GPU();
  std::string elf = "\x7f"
                    "ELF garbage";
  CudaError error = errorOf([&] { Module::load(0, elf); });
  EXPECT_NE(error.code(), CUDA_SUCCESS);
  EXPECT_TRUE(contains(error.what(), "cuModuleLoadDataEx failed: CUDA_ERROR_"))
      << error.what();
}

TEST(CudaGpuErrors, PtxErrorsCarryTheJitLog) {
  NORMC_REQUIRE_GPU();
  const char *ptx = ".version 7.0\n.target sm_70\n.address_size 64\n\n"
                    ".visible .entry broken()\n{\n\tbogus.instruction;\n}\n";
  CudaError error = errorOf([&] { Module::load(0, ptx); });
  std::string message = error.what();
  EXPECT_TRUE(contains(message, "cuModuleLoadDataEx failed: CUDA_ERROR_"))
      << message;
  // The JIT's log follows the driver's error text on its own line(s).
  EXPECT_TRUE(contains(message, "\n")) << message;
}

TEST(CudaGpuErrors, MissingKernel) {
  NORMC_REQUIRE_GPU();
  Module module = Module::load(
      0, compileForDevice("extern \"C\" __global__ void present() {}",
                          nvrtc::Target::Cubin));
  CudaError error = errorOf([&] { module.function("absent"); });
  EXPECT_EQ(error.code(), CUDA_ERROR_NOT_FOUND);
  EXPECT_TRUE(contains(error.what(), "cuModuleGetFunction(\"absent\") failed: "
                                     "CUDA_ERROR_NOT_FOUND (500): "))
      << error.what();
  module.function("present");
}

TEST(CudaGpuErrors, BadLaunchConfiguration) {
  NORMC_REQUIRE_GPU();
  Module module = Module::load(
      0, compileForDevice("extern \"C\" __global__ void empty() {}",
                          nvrtc::Target::Cubin));
  Function empty = module.function("empty");
  CudaError error = errorOf([&] { launch(empty, 1, 4096, 0, nullptr); });
  EXPECT_EQ(error.code(), CUDA_ERROR_INVALID_VALUE);
  EXPECT_TRUE(contains(error.what(), "cuLaunchKernel(empty, grid 1, block "
                                     "4096, 0 B dynamic shared) failed: "
                                     "CUDA_ERROR_INVALID_VALUE (1): "))
      << error.what();
  launch(empty, 1, 32, 0, nullptr);
  synchronize(0);
}

TEST(CudaGpuErrors, NoSuchDevice) {
  NORMC_REQUIRE_GPU();
  int missing = deviceCount();
  CudaError info = errorOf([&] { deviceInfo(missing); });
  EXPECT_EQ(info.code(), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_TRUE(contains(info.what(), "cuDeviceGet(" + std::to_string(missing) +
                                        ") failed: CUDA_ERROR_INVALID_DEVICE "
                                        "(101): "))
      << info.what();
  EXPECT_EQ(errorOf([&] { Buffer(missing, 16); }).code(),
            CUDA_ERROR_INVALID_DEVICE);
}

TEST(CudaGpuErrors, OutOfMemory) {
  NORMC_REQUIRE_GPU();
  size_t huge = size_t{1} << 40; // 1 TiB
  CudaError error = errorOf([&] { Buffer(0, huge); });
  EXPECT_EQ(error.code(), CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_TRUE(contains(error.what(), "cuMemAlloc(" + std::to_string(huge) +
                                         " B) failed: "
                                         "CUDA_ERROR_OUT_OF_MEMORY (2): "))
      << error.what();
  Buffer(0, 16).fill(0);
}

TEST(CudaGpuErrors, BufferBoundsAndMoves) {
  NORMC_REQUIRE_GPU();
  Buffer buffer(0, 64);
  char host[128] = {};
  EXPECT_THROW(buffer.upload(host, 65), std::invalid_argument);
  EXPECT_THROW(buffer.download(host, 128), std::invalid_argument);
  buffer.fill(7);
  buffer.download(host, 64);
  EXPECT_EQ(host[63], 7);

  Buffer moved = std::move(buffer);
  EXPECT_EQ(buffer.get(), nullptr);
  EXPECT_EQ(buffer.size(), 0u);
  EXPECT_EQ(moved.size(), 64u);
  moved.download(host, 64);
  EXPECT_EQ(host[0], 7);

  Buffer empty(0, 0);
  EXPECT_EQ(empty.get(), nullptr);
  empty.upload(host, 0);
}

} // namespace
