//===- AllocateShared.cpp - Place every region of dynamic shared memory ---===//
//
// As Triton's AllocateSharedMemory: the layout is decided once, here, and
// written into the IR; the emitter prints the offsets it implies and the
// launch facts carry it to the runtime. The kernel verifier checks that the
// layout holds the ops' regions and fits in a block.
//
//===----------------------------------------------------------------------===//
#include "normc/Dialect/Kern/Transforms/Passes.h"

namespace normc::kern {
#define GEN_PASS_DEF_KERNALLOCATESHARED
#include "normc/Dialect/Kern/Transforms/Passes.h.inc"
} // namespace normc::kern

using namespace mlir;
using namespace normc::kern;

namespace {
struct AllocateShared
    : normc::kern::impl::KernAllocateSharedBase<AllocateShared> {
  void runOnOperation() override {
    for (KernelOp kernel : getOperation().getOps<KernelOp>()) {
      normc::SharedLayout layout = getNeededSharedLayout(kernel);
      if (layout.regions.empty()) {
        kernel.removeSharedLayoutAttr();
        continue;
      }
      Builder b(kernel.getContext());
      int64_t region = 0;
      for (auto rows : kernel.getBody().getOps<SharedRowsOp>()) {
        rows.setRegionAttr(b.getI64IntegerAttr(region));
        region += rows.getNumResults();
      }
      for (auto table : kernel.getBody().getOps<SharedGroupsOp>())
        table.setRegionAttr(b.getI64IntegerAttr(region++));
      for (auto tiles : kernel.getBody().getOps<SharedTilesOp>())
        tiles.setRegionAttr(b.getI64IntegerAttr(region++));
      kernel.setSharedLayoutAttr(
          SharedLayoutAttr::get(kernel.getContext(), layout));
    }
  }
};
} // namespace
