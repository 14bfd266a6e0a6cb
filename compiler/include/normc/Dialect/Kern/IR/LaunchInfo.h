//===- LaunchInfo.h - Launch facts, read off kern IR ----------------------===//
//
// What a host needs to launch a kernel (normc::KernelLaunchInfo, plain C++
// in abi/) comes from the kernel-level IR alone: its schedule, its shared
// layout (placed by kern-allocate-shared) and its buffers, in order.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_DIALECT_KERN_IR_LAUNCHINFO_H
#define NORMC_DIALECT_KERN_IR_LAUNCHINFO_H

#include "normc/Abi/KernelInfo.h"
#include "normc/Dialect/Kern/IR/KernOps.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace normc {

/// The launch facts of a kernel whose shared memory is placed.
mlir::FailureOr<KernelLaunchInfo> getLaunchInfo(kern::KernelOp kernel);

/// The launch facts of every kernel of `module`, in the order the runtime
/// launches them (increasing launch_order).
mlir::FailureOr<std::vector<KernelLaunchInfo>>
getLaunchSequence(mlir::ModuleOp module);

} // namespace normc

#endif // NORMC_DIALECT_KERN_IR_LAUNCHINFO_H
