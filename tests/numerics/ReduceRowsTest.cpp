//===- ReduceRowsTest.cpp - Reductions across rows, run on the CPU device -===//
//
// The two kernels of tests/lit/Conversion/sched-to-kern-reduce-rows.mlir
// (per-row-group partial sums of x * dy per feature, then their sum in order):
// on the CPU device the result matches the float64 sum and is the same bits for
// every lane order and host thread count, with a ragged last row group and d
// not a multiple of the vector width.
//
//===----------------------------------------------------------------------===//
#include "NumericsUtil.h"

#include "normc/Frontend/SpecCompiler.h"
#include "normc/Runtime/Host/HostData.h"
#include "normc/Runtime/Host/KernelArgs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace normc;

namespace {

/// Runs both kernels; returns dgamma as doubles.
std::vector<double> run(const EmittedModule &c, const cpu::CpuModule &module,
                        const std::vector<unsigned char> &x,
                        const std::vector<unsigned char> &dy, int64_t rows,
                        int64_t d, const cpu::LaunchOptions &options) {
  const KernelLaunchInfo &partialsKernel = c.kernels[0];
  const KernelLaunchInfo &finishKernel = c.kernels[1];
  int64_t blocks = partialsKernel.gridFor(rows);
  int64_t partialRows = blocks * partialsKernel.rowsPerBlock;
  std::vector<float> partials(partialRows * d,
                              std::numeric_limits<float>::quiet_NaN());
  std::vector<unsigned char> dgamma(d * 2, 0xff); // bf16 NaNs
  KernelArgs args;
  args.rows = rows;
  args.d = d;
  args.buffers["x"] = const_cast<unsigned char *>(x.data());
  args.buffers["dy"] = const_cast<unsigned char *>(dy.data());
  args.buffers["partials"] = partials.data();
  args.buffers["dgamma"] = dgamma.data();
  PackedArgs first(partialsKernel, args);
  cpu::launch(module.kernel(partialsKernel.name),
              cpu::Dim3{static_cast<unsigned>(blocks), 1, 1},
              cpu::Dim3{static_cast<unsigned>(partialsKernel.blockSize), 1, 1},
              partialsKernel.dynamicSharedBytes(d), first.data(), options);
  args.rows = partialRows; // the second kernel's rows: the partial rows
  PackedArgs second(finishKernel, args);
  cpu::launch(module.kernel(finishKernel.name), cpu::Dim3{3, 1, 1},
              cpu::Dim3{static_cast<unsigned>(finishKernel.blockSize), 1, 1}, 0,
              second.data(), options);
  return host::decode("bf16", dgamma.data(), d);
}

TEST(ReduceRows, PartialsThenTheirSumAreExactAndDeterministic) {
  std::string errors;
  std::optional<EmittedModule> emitted = emitIRFile(
      std::string(NORMC_LIT_DIR) + "/Conversion/sched-to-kern-reduce-rows.mlir",
      errors);
  ASSERT_TRUE(emitted) << errors;
  const EmittedModule &c = *emitted;
  ASSERT_EQ(c.kernels.size(), 2u);
  EXPECT_EQ(c.kernels[0].name, "dgamma_partials");
  cpu::CpuModule module =
      cpu::CpuModule::compile(c.source, test::kernelCompileOptions());

  const int64_t rows = 23, d = 1001; // a ragged last group of 4 rows
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> xv(rows * d), dyv(rows * d);
  for (double &v : xv)
    v = normal(rng);
  for (double &v : dyv)
    v = normal(rng);
  std::vector<unsigned char> x = host::encode("bf16", xv.data(), xv.size()),
                             dy = host::encode("bf16", dyv.data(), dyv.size());
  xv = host::decode("bf16", x.data(), xv.size());
  dyv = host::decode("bf16", dy.data(), dyv.size());

  std::vector<double> first;
  for (cpu::LaneOrder order : {cpu::LaneOrder::Forward, cpu::LaneOrder::Reverse,
                               cpu::LaneOrder::Random})
    for (unsigned threads : {1u, 2u}) {
      cpu::LaunchOptions options;
      options.laneOrder = order;
      options.seed = 9;
      options.hostThreads = threads;
      std::vector<double> got = run(c, module, x, dy, rows, d, options);
      if (first.empty()) {
        first = got;
        for (int64_t i = 0; i < d; ++i) {
          double exact = 0;
          for (int64_t r = 0; r < rows; ++r)
            exact += xv[r * d + i] * dyv[r * d + i];
          // Rounded once to bf16, from an f32 sum of 23 products.
          EXPECT_LE(std::fabs(got[i] - exact), 0x1p-8 * std::fabs(exact) + 1e-5)
              << "feature " << i;
        }
      }
      for (int64_t i = 0; i < d; ++i)
        ASSERT_EQ(std::memcmp(&got[i], &first[i], sizeof(double)), 0)
            << "feature " << i << " differs between runs";
    }
}

} // namespace
