//===- PackManifestFuzzer.cpp - A kernel pack's manifest ------------------===//
//
// Any bytes as a pack's manifest.txt, with candidate sources that declare
// one kernel `k`: parsePack returns a pack whose every kernel's parameters
// are the ones its source declares and whose candidates of a program take
// the same arguments, or throws PackError; it never crashes, hangs or
// over-allocates. What it returns is then planned and its arguments packed
// as a launch would.
//
//===----------------------------------------------------------------------===//
#include "normc/Abi/Signature.h"
#include "normc/Runtime/Host/KernelArgs.h"
#include "normc/Runtime/Host/Pack.h"

#include <cstdlib>
#include <string>

namespace {
const char kSource[] =
    "NORMC_KERNEL(256, k)(const float *x, long long x_stride, "
    "const float *gamma, float *y, long long y_stride, float *rstd, "
    "long long rows, int d) {}\n";
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string manifest(reinterpret_cast<const char *>(data), size);
  normc::Pack pack;
  try {
    pack = normc::parsePack(manifest, "manifest.txt",
                            [](const std::string &file) -> std::string {
                              if (file == "spec.toml")
                                return "name = \"k\"\n";
                              return kSource;
                            });
  } catch (const normc::PackError &) {
    return 0;
  }
  int64_t d = pack.d.value_or(7);
  for (const normc::PackCandidate &c : pack.candidates) {
    if (c.kernels.empty())
      std::abort();
    normc::KernelArgs args;
    args.d = d;
    static float buffer[64];
    for (const normc::Argument &a : normc::signatureOf(c.kernels))
      args.buffers[a.name] = buffer;
    for (const normc::KernelLaunchInfo &info : c.kernels)
      for (const normc::KernelParam &p : info.params)
        if (p.kind == normc::KernelParam::Kind::Partials)
          args.buffers[p.name] = buffer;
    try {
      std::vector<normc::KernelLaunch> plan =
          normc::planLaunches(c.kernels, 3, d);
      normc::packLaunches(c.kernels, plan, args);
    } catch (const std::invalid_argument &) {
      // A kernel of another d, say: refused before any launch.
    }
  }
  return 0;
}
