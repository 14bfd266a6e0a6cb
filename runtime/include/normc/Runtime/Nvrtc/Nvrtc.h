//===- Nvrtc.h - Compile emitted CUDA source with NVRTC -------------------===//
#ifndef NORMC_RUNTIME_NVRTC_H
#define NORMC_RUNTIME_NVRTC_H

#include <string>
#include <vector>

namespace normc::nvrtc {

enum class Target { Ptx, Cubin };

struct Options {
  /// "sm_80", "sm_90", "sm_90a", ...; PTX is generated for compute_XX.
  std::string arch = "sm_90";
  Target target = Target::Ptx;
  /// Extra NVRTC options, passed through.
  std::vector<std::string> extra;
};

struct Result {
  bool ok = false;
  std::string binary; // PTX text or CUBIN bytes
  std::string log;    // NVRTC's program log (ptxas -v lines for CUBIN)
  std::string error;  // why it failed
};

/// Compiles one translation unit; never throws. CUBIN compiles pass
/// `--ptxas-options=-v`, so the log lists registers and spills.
Result compile(const std::string &source, const std::string &fileName,
               const Options &options);

/// The options every compile passes before Options::extra: the language and
/// the floating-point model (no fma contraction, IEEE division, square root
/// and subnormals). Part of every cache key of a compiled kernel.
const std::vector<std::string> &fixedOptions();

/// Whether `arch` is spelled sm_XX (sm_80, sm_90a, ...); NVRTC itself
/// decides whether it supports it.
bool isValidArch(const std::string &arch);
/// The SM version of such an arch (90 for sm_90 and sm_90a), 0 if invalid.
int smVersion(const std::string &arch);

/// "MAJOR.MINOR" of the NVRTC in use.
std::string version();

/// Bytes of spill stores and loads reported in a ptxas -v log (summed over
/// kernels); -1 when the log holds no such report.
long spillBytes(const std::string &log);

} // namespace normc::nvrtc

#endif // NORMC_RUNTIME_NVRTC_H
