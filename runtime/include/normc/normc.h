//===- normc.h - JIT normalization kernels from a host program ------------===//
//
//   normc::Runtime rt;                                // a GPU if present
//   normc::Norm norm = rt.loadSpecFile("specs/llama_rmsnorm.toml");
//   normc::Arguments a(rows, 4096);                   // device pointers
//   a.set("x", x).set("gamma", gamma).set("y", y);    // norm.signature()
//   norm.forward(a, stream);
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

#include "normc/Abi/Signature.h"
#include <cstdint>

#include <functional>
#include <map>
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
  /// 1: every spec in reproducible mode ([numerics] reproducible = true:
  /// the same bits whatever the schedule, the batch, the grid and the
  /// device; docs/numerics.md); 0: as each spec says; -1 (default):
  /// $NORMC_REPRODUCIBLE if set, else 0. A pack must have been compiled so.
  int reproducible = -1;
  /// The CPU device's headers (CpuCuda.h, CpuAbi.h); empty:
  /// $NORMC_CPU_HEADER_DIR, else those of the source tree normc was built
  /// from. Installed copies, such as the Python package's, pass their own.
  std::string cpuHeaderDir;
};

/// One buffer of a call: a device pointer on CUDA, a host pointer on the CPU
/// device, of the element type its signature gives; for a strided argument
/// ([rows, d]) its row stride in elements, 0 for d.
struct Tensor {
  const void *data = nullptr;
  int64_t rowStride = 0;
};

/// The buffers of one call, by the names of the program's signature
/// (Norm::signature): every argument of it, no other.
struct Arguments {
  int64_t rows = 0, d = 0;
  std::map<std::string, Tensor> tensors;

  Arguments() = default;
  Arguments(int64_t rows, int64_t d) : rows(rows), d(d) {}
  Arguments &set(const std::string &name, const void *data,
                 int64_t rowStride = 0) {
    tensors[name] = Tensor{data, rowStride};
    return *this;
  }
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
  /// The spec's canonical TOML text (equal specs, equal text).
  const std::string &canonical() const;
  /// What the output adds to gamma (Gemma's 1 + gamma; 0 for most specs).
  double gainOffset() const;

  /// The arguments of a program: "forward", or a backward as
  /// backwardPrograms() names it. Throws Error for a program the spec does
  /// not have (an fp8 output has no backward).
  Signature signature(const std::string &program = "forward") const;
  /// The spec's backward programs, each with its own signature: "backward"
  /// (it recomputes the statistics) first, then those that also read the
  /// forward's saved statistics ("backward+saved_stats") or the gradient
  /// arriving at residual_out ("backward+dresidual_out"), where the spec has
  /// them. Empty when the spec has no backward.
  std::vector<std::string> backwardPrograms() const;

  /// Runs the forward kernel for a.rows x a.d on `stream` (a CUstream;
  /// null: the default stream; ignored on the CPU device, which finishes
  /// before returning). Throws Error, before any kernel runs, when the
  /// arguments do not match signature("forward").
  void forward(const Arguments &a, void *stream = nullptr) const;

  /// Every schedule the tuner may pick for hidden size d, the heuristic's
  /// first (as text, e.g. "strategy=row_group,rows_per_block=1,...").
  std::vector<std::string> schedules(int64_t d) const;
  /// forward() with the kernel of one of schedules(d) instead of the tuned
  /// one, e.g. to check every candidate; throws Error for any other.
  void forwardWith(const std::string &schedule, const Arguments &a,
                   void *stream = nullptr) const;
  /// Runs the backward kernels for a.rows x a.d on `stream`: dx (and
  /// dresidual) in one pass over the rows, dgamma and dbeta as per-block
  /// partial sums in a fixed order and a kernel that adds them, so they are
  /// the same bits from run to run on one device. The program is the one of
  /// backwardPrograms() whose signature names exactly the arguments given
  /// (passing the saved mean and rstd selects the kernels that read them);
  /// Error when none does. On CUDA, backward calls of one Norm on several
  /// streams at once share a workspace: give each stream a Norm.
  void backward(const Arguments &a, void *stream = nullptr) const;
  /// The backward's schedule candidates for d (of the kernels that read
  /// saved statistics or dresidualOut when asked), and backward() with one
  /// of them instead of the tuned one.
  std::vector<std::string> backwardSchedules(int64_t d, bool savedStats = false,
                                             bool dresidualOut = false) const;
  void backwardWith(const std::string &schedule, const Arguments &a,
                    void *stream = nullptr) const;

  /// Makes the kernel for (d, rows) ready without running it; returns its
  /// schedule.
  std::string prepare(int64_t d, int64_t rows) const;

  /// Measures the heuristic's schedule and the few other candidates for
  /// (d, rows) the cost model ranks best, stores the fastest in the tuning
  /// database and uses it from now on. `progress` hears of each candidate
  /// as it is measured.
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

  /// The folder of the caches (kernels, tuning results, CPU objects) of a
  /// runtime whose options give none: $NORMC_CACHE_DIR, else
  /// $XDG_CACHE_HOME/normc, else ~/.cache/normc (docs/caching.md).
  static std::string defaultCacheDir();
  /// Removes every cache entry under `cacheDir` (empty: defaultCacheDir())
  /// and nothing else; returns how many files it removed. Kernels already
  /// loaded stay loaded; other processes rebuild what they miss.
  static int64_t clearCache(const std::string &cacheDir = "");

private:
  std::shared_ptr<RuntimeState> state;
};

} // namespace normc

#endif // NORMC_NORMC_H
