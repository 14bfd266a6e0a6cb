//===- normc.h - JIT normalization kernels from a host program ------------===//
//
//   normc::Runtime rt;                                // a GPU if present
//   normc::Norm norm = rt.loadSpecFile("specs/llama_rmsnorm.toml");
//   normc::ForwardArgs a;
//   a.rows = rows; a.d = 4096; a.x = x; a.gamma = gamma; a.y = y;
//   norm.forward(a, stream);                          // device pointers
//
// The first forward() for a hidden size d specializes, compiles (NVRTC for
// the GPU present, or the host compiler for the CPU device), tunes (where
// enabled) and caches the kernel; later calls, and later processes through
// the disk cache, reuse it. Everything here is safe to call from several
// host threads; errors are normc::Error exceptions with messages. See
// docs/runtime.md.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_NORMC_H
#define NORMC_NORMC_H

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace normc {

class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

enum class DeviceKind {
  Auto, // a CUDA GPU when one can be used, else the CPU
  Cpu,  // the CPU device: emitted CUDA run on fibers (host pointers)
  Cuda  // the CUDA GPU (device pointers, CUDA streams)
};

struct RuntimeOptions {
  DeviceKind device = DeviceKind::Auto;
  int cudaDevice = 0;
  /// Kernel and tuning caches; empty: $NORMC_CACHE_DIR, else
  /// $XDG_CACHE_HOME/normc, else ~/.cache/normc.
  std::string cacheDir;
  /// 1: measure the schedule candidates of each new shape; 0: heuristic
  /// schedule; -1 (default): $NORMC_AUTOTUNE if set, else on for CUDA and
  /// off for the CPU device.
  int autotune = -1;
  /// The CPU device's headers (CpuCuda.h, CpuAbi.h); empty:
  /// $NORMC_CPU_HEADER_DIR, else those of the source tree normc was built
  /// from. Installed copies, such as the Python package's, pass their own.
  std::string cpuHeaderDir;
};

/// What a loaded spec reads and writes, for bindings that check their
/// arguments: storage types as spelled in specs ("f32", "f16", "bf16";
/// the output may be "f8e4m3" or "f8e5m2", contract section 7).
struct NormSignature {
  std::string input, output, params;
  bool residual = false, gamma = false, beta = false;   // inputs
  bool residualOut = false, mean = false, rstd = false; // outputs
  /// Statistics: what a backward with saved statistics reads (the mean
  /// when centered, rstd when scaled).
  bool centered = false, scaled = false;
  /// The output uses gainOffset + gamma (Gemma: 1).
  double gainOffset = 0;
  /// An fp8 output: "row" (writes a scale per row), "block" (a scale per
  /// row and block of quantizeBlock features) or "static" (reads one scale,
  /// writes the amax per row); empty for the other outputs.
  std::string quantizeScale;
  int64_t quantizeBlock = 0; // with "block"
  /// The spec's canonical TOML text (dsl::Spec::canonical).
  std::string canonical;
};

/// Pointers are device pointers on CUDA and host pointers on the CPU
/// device, of the spec's types. Strides are in elements; 0 means d.
struct ForwardArgs {
  int64_t rows = 0, d = 0;
  const void *x = nullptr;
  int64_t xStride = 0;
  const void *residual = nullptr; // with residual_add
  int64_t residualStride = 0;
  const void *gamma = nullptr; // with gain
  const void *beta = nullptr;  // with bias
  void *y = nullptr;
  int64_t yStride = 0;
  void *residualOut = nullptr; // with residual_add
  int64_t residualOutStride = 0;
  float *mean = nullptr; // with save_stats and center
  float *rstd = nullptr; // with save_stats (all 1 when scale = false)
  // An fp8 output (contract section 7), y then of the fp8 type: with
  // `[quantize] scale = "row"` the per-row scales [rows] are written, with
  // "block" the scales [rows, ceil(d / block)] (row-major, contiguous); with
  // "static" the scale [1] is read and the per-row amax [rows] written.
  float *scale = nullptr;
  const float *staticScale = nullptr;
  float *amax = nullptr;
};

/// The backward of contract section 5, for the loss
/// sum(dy * y) + sum(dresidualOut * residual_out). Pointers as for
/// ForwardArgs; dy is of the output type, dresidualOut of the input type.
/// Passing the saved statistics (mean when centered, rstd when scaled)
/// selects the kernels that read them instead of recomputing them.
struct BackwardArgs {
  int64_t rows = 0, d = 0;
  const void *x = nullptr;
  int64_t xStride = 0;
  const void *residual = nullptr; // with residual_add
  int64_t residualStride = 0;
  const void *gamma = nullptr; // with gain
  const void *dy = nullptr;
  int64_t dyStride = 0;
  const void *dresidualOut = nullptr; // optional, with residual_add
  int64_t dresidualOutStride = 0;
  const float *mean = nullptr; // optional: a forward's saved statistics
  const float *rstd = nullptr;
  void *dx = nullptr; // of the input type
  int64_t dxStride = 0;
  void *dresidual = nullptr; // with residual_add: the same values as dx
  int64_t dresidualStride = 0;
  void *dgamma = nullptr; // with gain, of the params type
  void *dbeta = nullptr;  // with bias, of the params type
};

/// One measured schedule candidate.
struct TuneResult {
  std::string schedule;
  double milliseconds = 0; // median; < 0 when it could not run
  std::string note;        // why it could not run
};

struct TuneReport {
  std::vector<TuneResult> candidates;
  std::string winner;
};

struct NormState;

/// A loaded spec. Copies share their state.
class Norm {
public:
  const std::string &name() const;
  DeviceKind device() const;
  NormSignature signature() const;

  /// Runs the forward kernel for a.rows x a.d on `stream` (a CUstream;
  /// null: the default stream; ignored on the CPU device, which finishes
  /// before returning).
  void forward(const ForwardArgs &a, void *stream = nullptr) const;

  /// Every schedule the tuner may pick for hidden size d, the heuristic's
  /// first (as text, e.g. "strategy=row_group,rows_per_block=1,...").
  std::vector<std::string> schedules(int64_t d) const;
  /// forward() with the kernel of one of schedules(d) instead of the tuned
  /// one, e.g. to check every candidate; throws Error for any other.
  void forwardWith(const std::string &schedule, const ForwardArgs &a,
                   void *stream = nullptr) const;
  /// Runs the backward kernels for a.rows x a.d on `stream`: dx (and
  /// dresidual) in one pass over the rows, dgamma and dbeta as per-block
  /// partial sums in a fixed order and a kernel that adds them, so they are
  /// the same bits from run to run on one device. Throws Error for
  /// missing or inconsistent arguments. On CUDA, backward calls of one Norm
  /// on several streams at once share a workspace: give each stream a Norm.
  void backward(const BackwardArgs &a, void *stream = nullptr) const;
  /// The backward's schedule candidates for d (of the kernels that read
  /// saved statistics or dresidualOut when asked), and backward() with one
  /// of them instead of the tuned one.
  std::vector<std::string> backwardSchedules(int64_t d, bool savedStats = false,
                                             bool dresidualOut = false) const;
  void backwardWith(const std::string &schedule, const BackwardArgs &a,
                    void *stream = nullptr) const;

  /// Makes the kernel for (d, rows) ready without running it; returns its
  /// schedule.
  std::string prepare(int64_t d, int64_t rows) const;

  /// Measures every candidate for (d, rows), stores the winner in the
  /// tuning database and uses it from now on. `progress` hears of each
  /// candidate as it is measured.
  TuneReport
  tune(int64_t d, int64_t rows,
       const std::function<void(const TuneResult &)> &progress = {}) const;
  /// tune() for the backward (statistics recomputed).
  TuneReport tuneBackward(
      int64_t d, int64_t rows,
      const std::function<void(const TuneResult &)> &progress = {}) const;

  /// Made by Runtime::load*.
  explicit Norm(std::shared_ptr<NormState> state);

private:
  std::shared_ptr<NormState> state;
};

struct RuntimeState;

class Runtime {
public:
  explicit Runtime(const RuntimeOptions &options = {});
  DeviceKind device() const;
  /// "cpu" or the GPU's name and architecture.
  std::string deviceName() const;

  /// JIT from a spec (needs a build with the compiler).
  Norm loadSpecFile(const std::string &path);
  Norm loadSpecString(const std::string &toml,
                      const std::string &fileName = "<string>");
  /// From a kernel pack (`normc compile --emit=pack -o DIR`).
  Norm loadPack(const std::string &dir);

  /// Whether this build can JIT from specs (false for the runtime-only
  /// build, which loads packs).
  static bool canCompileSpecs();

private:
  std::shared_ptr<RuntimeState> state;
};

} // namespace normc

#endif // NORMC_NORMC_H
