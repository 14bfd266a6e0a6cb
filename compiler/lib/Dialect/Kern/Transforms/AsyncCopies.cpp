//===- AsyncCopies.cpp - Stage rows into shared memory asynchronously -----===//
//
// A row staged in shared memory straight from a buffer need not pass
// through registers: kern.async_keep copies each chunk (cp.async), so a
// thread has every copy of its row in flight at once, and one
// kern.async_wait before the first use of the row lets them land.
//
//===----------------------------------------------------------------------===//
#include "normc/Dialect/Kern/Transforms/Passes.h"

#include "llvm/ADT/DenseSet.h"

namespace normc::kern {
#define GEN_PASS_DEF_KERNASYNCCOPIES
#include "normc/Dialect/Kern/Transforms/Passes.h.inc"
} // namespace normc::kern

using namespace mlir;
using namespace normc::kern;
using normc::sched::RowsType;

namespace {

bool usesAnyOf(Operation *op, const llvm::DenseSet<Value> &rows) {
  return op
      ->walk([&](Operation *inner) {
        Value kept = getKeptRowAccessed(inner);
        return kept && rows.contains(kept) ? WalkResult::interrupt()
                                           : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Turns `keep(load_chunk(buffer), shared row)` into an asynchronous copy
/// where the pass reads nothing else of that row; returns whether it did.
bool copyAsynchronously(KeepOp keep, int64_t vectorWidth) {
  auto load = keep.getValue().getDefiningOp<LoadChunkOp>();
  if (!load || !isa<RowsType>(load.getSource().getType()) ||
      !load->hasOneUse() || !keep.getDest().getDefiningOp<SharedRowsOp>())
    return false;
  if (!isAsyncCopySize(chunkBytes(keep.getDest().getType(), vectorWidth)))
    return false;
  auto pass = keep->getParentOfType<ForChunksOp>();
  llvm::DenseSet<Value> row{keep.getDest()};
  bool readHere = pass->walk([&](ReadKeptOp read) {
                        return row.contains(read.getSource())
                                   ? WalkResult::interrupt()
                                   : WalkResult::advance();
                      })
                      .wasInterrupted();
  if (readHere)
    return false;
  OpBuilder builder(keep);
  AsyncKeepOp::create(builder, keep.getLoc(), load.getSource(), keep.getDest());
  keep.erase();
  load.erase();
  return true;
}

void rewriteRowLoop(ForRowGroupsOp loop, int64_t vectorWidth) {
  Block &body = loop.getBody().front();
  for (auto pass : body.getOps<ForChunksOp>())
    for (KeepOp keep : llvm::make_early_inc_range(pass.getOps<KeepOp>()))
      copyAsynchronously(keep, vectorWidth);
  // The wait goes before the first op that uses a row still in flight
  // (unless one is there already).
  llvm::DenseSet<Value> inFlight;
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (isa<AsyncWaitOp>(op))
      inFlight.clear();
    if (!inFlight.empty() && usesAnyOf(&op, inFlight)) {
      OpBuilder builder(&op);
      AsyncWaitOp::create(builder, op.getLoc());
      inFlight.clear();
    }
    op.walk([&](AsyncKeepOp copy) { inFlight.insert(copy.getDest()); });
  }
  if (!inFlight.empty()) {
    OpBuilder builder = OpBuilder::atBlockEnd(&body);
    AsyncWaitOp::create(builder, loop.getLoc());
  }
}

struct AsyncCopies
    : public normc::kern::impl::KernAsyncCopiesBase<AsyncCopies> {
  void runOnOperation() override {
    for (KernelOp kernel : getOperation().getOps<KernelOp>()) {
      int64_t vectorWidth = kernel.getSchedule().getValue().vectorWidth;
      for (auto loop : kernel.getBody().getOps<ForRowGroupsOp>())
        rewriteRowLoop(loop, vectorWidth);
    }
  }
};

} // namespace
