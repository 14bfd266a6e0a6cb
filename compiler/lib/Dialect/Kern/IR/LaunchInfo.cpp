//===- LaunchInfo.cpp - Launch facts, read off kern IR --------------------===//
#include "normc/Dialect/Kern/IR/LaunchInfo.h"
#include "normc/Dialect/ElementTypes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <tuple>

using namespace mlir;
using namespace normc;
using namespace normc::kern;
using namespace normc::sched;

FailureOr<KernelLaunchInfo> normc::getLaunchInfo(kern::KernelOp kernel) {
  const Schedule &schedule = kernel.getSchedule().getValue();
  KernelLaunchInfo info;
  info.name = kernel.getSymName().str();
  if (kernel.getD())
    info.d = *kernel.getD();
  info.blockSize = schedule.blockSize();
  info.rowsPerBlock = schedule.rowsPerBlock;
  info.vectorWidth = schedule.vectorWidth;
  info.clusterSize = schedule.blocksPerRow();
  info.launchOrder = kernel.getLaunchOrder();
  info.partialRows = kernel.getPartialRows().value_or(0);
  if (SharedLayoutAttr layout = kernel.getSharedLayoutAttr())
    info.shared = layout.getValue();
  else if (!getNeededSharedLayout(kernel).regions.empty())
    return kernel.emitOpError("keeps values in dynamic shared memory that "
                              "has no layout; run kern-allocate-shared");
  // One group size a kernel (the verifier says so).
  kernel.walk([&](Operation *op) {
    if (std::optional<int64_t> group = getGroupSize(op))
      info.groupSize = *group;
  });
  using Kind = KernelParam::Kind;
  for (auto buffer : kernel.getBody().getOps<BufferOp>()) {
    Kind kind = llvm::TypeSwitch<Type, Kind>(buffer.getType())
                    .Case<RowsType>([](auto) { return Kind::Rows; })
                    .Case<FeaturesType>([](auto) { return Kind::Features; })
                    .Case<PartialsType>([](auto) { return Kind::Partials; })
                    .Case<ScalarType>([](auto) { return Kind::Scalar; })
                    .Case<GroupsType>([](auto) { return Kind::Groups; })
                    .Default([](Type) { return Kind::Stats; });
    // Written when an op declares a write to it.
    bool written = llvm::any_of(buffer->getUsers(), [&](Operation *user) {
      return hasEffect<MemoryEffects::Write>(user, buffer.getResult());
    });
    info.params.push_back({kind, buffer.getName().str(),
                           getElementTypeName(getElementType(buffer.getType())),
                           written});
    if (kind == Kind::Rows)
      info.params.push_back(
          {Kind::RowStride, buffer.getName().str() + "_stride", "", false});
  }
  info.params.push_back({Kind::RowCount, "rows", "", false});
  info.params.push_back({Kind::D, "d", "", false});
  return info;
}

FailureOr<std::vector<KernelLaunchInfo>>
normc::getLaunchSequence(ModuleOp module) {
  std::vector<KernelLaunchInfo> sequence;
  for (auto rowKernel : module.getOps<sched::KernelOp>())
    return rowKernel.emitOpError("is a row-level kernel; run "
                                 "convert-sched-to-kern");
  for (auto kernel : module.getOps<kern::KernelOp>()) {
    FailureOr<KernelLaunchInfo> info = getLaunchInfo(kernel);
    if (failed(info))
      return failure();
    sequence.push_back(std::move(*info));
  }
  // Launch orders are distinct (the verifier says so); names break ties.
  llvm::sort(sequence, [](const auto &a, const auto &b) {
    return std::tie(a.launchOrder, a.name) < std::tie(b.launchOrder, b.name);
  });
  return sequence;
}
