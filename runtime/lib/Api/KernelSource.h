//===- KernelSource.h - Where a Norm's kernels come from ------------------===//
//
// A spec JIT-compiled by the compiler (JitSource.cpp, in builds with LLVM)
// or a kernel pack (PackSource.cpp): either way, the schedule candidates for
// a hidden size d and the emitted kernel of each.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_LIB_API_KERNELSOURCE_H
#define NORMC_LIB_API_KERNELSOURCE_H

#include "normc/Abi/KernelInfo.h"
#include "normc/Abi/Program.h"
#include "normc/Abi/Schedule.h"
#include "normc/Dsl/Spec.h"
#include "normc/Runtime/Cache/DiskCache.h"
#include "normc/Runtime/Host/Pack.h"

#include <memory>
#include <string>
#include <vector>

namespace normc::api {

/// The kernels of one program for one schedule, in launch order, and
/// their one source.
struct Candidate {
  Schedule schedule;
  std::string source;
  std::vector<KernelLaunchInfo> kernels;
};

class KernelSource {
public:
  virtual ~KernelSource() = default;
  virtual const dsl::Spec &spec() const = 0;
  /// The candidates of a program for d on a device of SM version `arch`
  /// (0: not a GPU), the heuristic default first. Throws normc::Error when
  /// d cannot be served (a pack specialized for another d, or without that
  /// program).
  virtual std::vector<Schedule> schedules(const Program &program, int64_t d,
                                          int arch) const = 0;
  /// Whether its kernels are compiled for the d they run with (else they
  /// take d at run time).
  virtual bool fixesD() const = 0;
  /// The kernels of one candidate; throws normc::Error.
  virtual Candidate kernel(const Program &program, int64_t d,
                           const Schedule &schedule) const = 0;
  /// The launch facts of some candidate of the program, for its signature
  /// (every candidate's is the same); throws normc::Error when the spec has
  /// no such program.
  virtual std::vector<KernelLaunchInfo>
  anyKernels(const Program &program) const = 0;
};

std::unique_ptr<KernelSource> makePackSource(Pack pack, dsl::Spec spec);
/// Whether this build has the compiler (makeJitSource returns a source).
bool haveCompiler();

/// Emitted kernels are kept in `emitted` (memory, then the disk's
/// "source" folder), shared by every Norm of a Runtime. Null in builds
/// without the compiler.
std::unique_ptr<KernelSource>
makeJitSource(dsl::Spec spec, std::shared_ptr<cache::TwoLevelCache> emitted);

} // namespace normc::api

#endif // NORMC_LIB_API_KERNELSOURCE_H
