//===- NameProbe.h - Compiling kernels named like what headers declare ----===//
//
// Which identifiers can name a kernel is a fact of the headers the emitted
// source is compiled with, so it is measured, not listed by hand: collect
// every identifier the headers spell, put one kernel per identifier in front
// of real emitted kernels (whose bodies would break if a kernel's name hid a
// type or function they use), compile, and read which lines failed.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_TESTS_UNIT_NAMES_NAMEPROBE_H
#define NORMC_TESTS_UNIT_NAMES_NAMEPROBE_H

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace normc::test {

/// Every identifier token of `text` (comments and strings included: a
/// superset of what it declares).
std::set<std::string> identifiersIn(std::string_view text);

/// The identifiers of every header in the CUDA toolkit's include folder and
/// its crt/ folder, which NVRTC's built-in declarations mirror.
std::set<std::string> cudaHeaderIdentifiers(const std::string &includeDir);

/// The identifiers a CPU device kernel sees: CpuCuda.h preprocessed as the
/// CPU device compiles it (with the toolkit's headers and the C library),
/// and every macro that leaves defined.
std::set<std::string> cpuHeaderIdentifiers(const std::string &cpuHeaderDir,
                                           const std::string &cudaIncludeDir);

/// The object-like macros CpuCuda.h leaves defined, by name.
std::set<std::string> cpuObjectMacros(const std::string &cpuHeaderDir,
                                      const std::string &cudaIncludeDir);

/// The identifiers of the CUDA headers and the CPU device's: what the
/// probes try.
std::set<std::string> headerIdentifiers();

/// Real emitted modules (several specs, forward and backward, d fixed and at
/// run time) to put the probed kernels in front of: every schedule candidate
/// of each, or only the default.
std::vector<std::string> realModules(bool everyCandidate);

/// A translation unit: the first module's prelude, one kernel per name (the
/// i-th on line firstLine + i), then the kernels of every module.
struct Probe {
  std::vector<std::string> names;
  std::string source;
  int firstLine = 0;
};
Probe kernelsNamed(const std::vector<std::string> &names,
                   const std::vector<std::string> &modules);

/// What a failed compile of a probe says.
struct Failures {
  /// The names whose lines the log puts an error on (NVRTC's
  /// "FILE(LINE): error", GCC's and Clang's "FILE:LINE:COL: error" and the
  /// "in expansion of macro" note that points at the use); where there are
  /// none, the names an error in the real kernels quotes.
  std::vector<std::string> names;
  /// `names` are quoted by errors in the real kernels: a name hid a type or
  /// function a body uses, or the quote is only a local's name (check each
  /// alone).
  bool quoted = false;
  /// The log has an error neither kind explains.
  bool unexplained = false;
};
/// `file` is a regular expression matching the source's name in the log.
Failures namesFailing(const Probe &probe, const std::string &file,
                      const std::string &log);

} // namespace normc::test

#endif // NORMC_TESTS_UNIT_NAMES_NAMEPROBE_H
