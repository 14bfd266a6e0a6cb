//===- KernelArgs.h - Pack a kernel's arguments cuLaunchKernel-style ------===//
#ifndef NORMC_RUNTIME_KERNELARGS_H
#define NORMC_RUNTIME_KERNELARGS_H

#include "normc/Abi/KernelInfo.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace normc {

/// The buffers and sizes of one launch, by the names the kernel's
/// parameters carry ("x", "gamma", "y", ...).
struct KernelArgs {
  int64_t rows = 0;
  int64_t d = 0;
  std::map<std::string, void *> buffers;
  /// Row strides in elements of the [rows, d] buffers; d when absent.
  std::map<std::string, int64_t> strides;
};

/// Why no kernel takes `rows` x `d` (negative rows, d outside
/// [1, kMaxD]), or "" when one does.
std::string shapeProblem(int64_t rows, int64_t d);

/// Argument values in parameter order and `void **` pointing at them, as
/// cuLaunchKernel and the CPU device take them.
class PackedArgs {
public:
  /// Throws std::invalid_argument when a buffer is missing (a per-row
  /// buffer may be missing when there are no rows), d does not
  /// match a kernel specialized for another d, or a stride is below d.
  PackedArgs(const KernelLaunchInfo &info, const KernelArgs &args);
  PackedArgs(const PackedArgs &) = delete;
  PackedArgs &operator=(const PackedArgs &) = delete;

  void **data() { return pointers.data(); }

private:
  // One 8-byte slot per parameter: a pointer, a 64-bit or a 32-bit integer.
  std::vector<uint64_t> slots;
  std::vector<void *> pointers;
};

/// The packed arguments of every launch of a plan (planLaunches), built
/// before any kernel runs so that a bad argument writes nothing. Throws as
/// PackedArgs does.
std::vector<std::unique_ptr<PackedArgs>>
packLaunches(const std::vector<KernelLaunchInfo> &sequence,
             const std::vector<KernelLaunch> &plan, KernelArgs args);

} // namespace normc

#endif // NORMC_RUNTIME_KERNELARGS_H
