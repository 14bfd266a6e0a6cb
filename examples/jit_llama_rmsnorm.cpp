//===- jit_llama_rmsnorm.cpp - JIT a spec from a host program and run it --===//
//
// Loads specs/llama_rmsnorm.toml (or a kernel pack with --pack DIR), runs it
// on 64 rows x 4096 bf16 values on the chosen device, and compares the
// result with a few lines of host arithmetic.
//
//   jit_llama_rmsnorm [--device=auto|cpu|cuda] [--pack DIR]
//
//===----------------------------------------------------------------------===//
#include "normc/Runtime/Cuda/CudaDriver.h"
#include "normc/Runtime/Host/HostData.h"
#include "normc/normc.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  normc::RuntimeOptions options;
  std::string pack;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--device=cpu")
      options.device = normc::DeviceKind::Cpu;
    else if (arg == "--device=cuda")
      options.device = normc::DeviceKind::Cuda;
    else if (arg == "--pack" && i + 1 < argc)
      pack = argv[++i];
    else if (arg != "--device=auto") {
      std::fprintf(stderr, "usage: %s [--device=auto|cpu|cuda] [--pack DIR]\n",
                   argv[0]);
      return 2;
    }
  }

  const int64_t rows = 64, d = 4096;
  std::mt19937 rng(42);
  std::normal_distribution<double> normal;
  std::vector<double> x(rows * d), gamma(d);
  for (double &v : x)
    v = normal(rng);
  for (double &v : gamma)
    v = 1.0 + 0.1 * normal(rng);
  // The spec stores bf16: round the inputs once, here.
  std::vector<unsigned char> xBits =
      normc::host::encode("bf16", x.data(), x.size());
  std::vector<unsigned char> gammaBits =
      normc::host::encode("bf16", gamma.data(), gamma.size());
  std::vector<unsigned char> yBits(xBits.size());

  try {
    normc::Runtime runtime(options);
    normc::Norm norm =
        pack.empty()
            ? runtime.loadSpecFile(NORMC_SPECS_DIR "/llama_rmsnorm.toml")
            : runtime.loadPack(pack);
    std::printf("%s on %s, schedule %s\n", norm.name().c_str(),
                runtime.deviceName().c_str(), norm.prepare(d, rows).c_str());

    // The buffers by the names of norm.signature(): x [rows, d] and
    // gamma [d] in, y [rows, d] out, all bf16 (rows packed: no row stride).
    normc::Arguments args(rows, d);
    if (runtime.device() == normc::DeviceKind::Cuda) {
      normc::cuda::Buffer dx(0, xBits.size()), dg(0, gammaBits.size()),
          dy(0, yBits.size());
      dx.upload(xBits.data(), xBits.size());
      dg.upload(gammaBits.data(), gammaBits.size());
      args.set("x", dx.get()).set("gamma", dg.get()).set("y", dy.get());
      norm.forward(args);
      normc::cuda::synchronize(0);
      dy.download(yBits.data(), yBits.size());
    } else {
      args.set("x", xBits.data())
          .set("gamma", gammaBits.data())
          .set("y", yBits.data());
      norm.forward(args);
    }
  } catch (const std::exception &error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }

  // y = x / sqrt(mean(x^2) + eps) * gamma, on the rounded inputs.
  std::vector<double> xr = normc::host::decode("bf16", xBits.data(), x.size());
  std::vector<double> gr =
      normc::host::decode("bf16", gammaBits.data(), gamma.size());
  std::vector<double> y = normc::host::decode("bf16", yBits.data(), x.size());
  double worst = 0;
  bool ok = true;
  for (int64_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (int64_t i = 0; i < d; ++i)
      sum += xr[r * d + i] * xr[r * d + i];
    double rstd = 1.0 / std::sqrt(sum / d + 1e-6);
    for (int64_t i = 0; i < d; ++i) {
      double ref = xr[r * d + i] * rstd * gr[i];
      double err = std::fabs(y[r * d + i] - ref);
      worst = std::max(worst, err);
      // The bf16 bound of docs/numerics.md.
      ok = ok && err <= 2 * 0x1p-7 * (std::fabs(ref) + 1);
    }
  }
  std::printf("max |y - reference| = %.3g (%s)\n", worst, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
