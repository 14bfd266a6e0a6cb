//===- SchedToKern.cpp - Make a kernel's structure explicit ---------------===//
//
// A row-level kernel (sched.kernel) is a straight-line program over whole
// rows. This pass decides, from the schedule, everything the CUDA emitter
// would otherwise decide, and writes it into a kern.kernel:
//
//  - which row values are kept and where (registers, a shared-memory
//    region, or re-read from global memory);
//  - one pass over the thread's chunks per kept row, store and reduction,
//    and, inside each pass, where every row value it needs comes from:
//    read from storage, loaded from a buffer, or recomputed from its
//    operands;
//  - each reduction's per-thread accumulator, warp shuffles, cross-warp
//    step through static shared memory, and the barriers around it; in a
//    cluster, the step across its blocks through distributed shared memory
//    and the cluster barriers around it; in reproducible mode, the stages
//    of the one tree over the feature index that every schedule computes
//    (docs/numerics.md);
//  - each per-group maximum's table in shared memory, its passes (clear,
//    atomic maxima, read) and the barriers between them;
//  - each reduction across rows' per-feature sums, which each thread keeps
//    for its features over the rows it handles (in registers, or in its row
//    group's row of the partials), zeroed before the row loop;
//  - for a kernel that adds partial sums, which thread adds which feature
//    and the loop over the partial rows.
//
//===----------------------------------------------------------------------===//
#include "normc/Abi/KernelInfo.h"
#include "normc/Abi/Number.h"
#include "normc/Abi/Schedule.h"
#include "normc/Conversion/Passes.h"
#include "normc/Dialect/Kern/IR/KernOps.h"
#include "normc/Dialect/Norm/IR/NormOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"

namespace normc {
#define GEN_PASS_DEF_CONVERTSCHEDTOKERN
#include "normc/Conversion/Passes.h.inc"
} // namespace normc

using namespace mlir;
using namespace normc::sched;
using namespace normc::kern;
namespace sched = normc::sched;
namespace kern = normc::kern;

namespace {

class KernelLowering {
public:
  KernelLowering(sched::KernelOp rowKernel)
      : rowKernel(rowKernel), schedule(rowKernel.getScheduleAttr().getValue()),
        b(rowKernel.getContext()) {}

  /// Builds the kern.kernel in place of the row-level kernel and erases it.
  LogicalResult lower();

private:
  /// The loop over row groups, and the storage it needs before it.
  LogicalResult lowerRows(ArrayRef<Operation *> program);
  /// The loop over features of a kernel that adds partial sums.
  void lowerSumPartials(ArrayRef<Operation *> sums);

  /// Opens a pass over this thread's chunks where the builder stands; with
  /// `uniform`, the same chunks for every thread of the row.
  void openChunkLoop(Location loc, bool uniform = false);
  void closeChunkLoop() {
    b.setInsertionPointAfter(chunkLoop);
    chunkLoop = nullptr;
    chunks.clear();
  }
  /// This chunk of a row value or per-feature buffer, inside a chunk loop.
  Value chunk(Value value);
  /// The chunks of `values` in the current chunk loop.
  SmallVector<Value> chunksOf(ValueRange values);
  /// Gives `into`, an op on `chunks`, a copy of `body`, whose arguments are
  /// the chunks' elements.
  void cloneBody(Region &body, Operation *into, ValueRange chunks);

  void keep(Value row);
  void store(StoreRowOp op);
  Value reduce(ReduceOp op);
  Value treeSum(ReduceOp op);
  void groupMax(GroupMaxOp op);
  void storeGroups(StoreGroupsOp op);
  void reduceRows(ReduceRowsOp op);
  Value crossThreadSum(Location loc, Value perThread, Combine combine);
  Value crossWarpSum(Location loc, Value perWarp, Combine combine);
  Value crossBlockSum(Location loc, Value perBlock, Combine combine,
                      bool pairwise = false);

  sched::KernelOp rowKernel;
  kern::KernelOp kernel;
  normc::Schedule schedule;
  OpBuilder b;
  IRMapping scalars; // row-level scalars -> their clones in the loop

  Operation *rowLoop = nullptr;
  ForChunksOp chunkLoop;
  llvm::DenseMap<Value, Value> chunks; // in the current chunk loop

  llvm::DenseMap<Value, Value> kept;        // row value -> its storage
  llvm::DenseMap<Value, Value> home;        // row value -> a buffer holding it
  llvm::DenseMap<Value, Value> sharedSlots; // row value -> its region
  SharedGroupsOp groupTable;
  /// Per-feature sums in registers, to store after the row loop, and where.
  SmallVector<std::pair<Value, Value>> registerSums;
  SharedScratchOp scratch;
  SharedClusterSlotOp clusterSlot;
  SharedTilesOp tiles;
};

} // namespace

void KernelLowering::openChunkLoop(Location loc, bool uniform) {
  std::optional<int64_t> unrolled;
  if (schedule.rowStorage == normc::RowStorage::Registers)
    unrolled = normc::vectorsPerThread(schedule, *kernel.getD());
  chunkLoop = ForChunksOp::create(
      b, loc, unrolled ? b.getI64IntegerAttr(*unrolled) : IntegerAttr(),
      uniform && !unrolled);
  b.setInsertionPointToStart(&chunkLoop.getBody().emplaceBlock());
  chunks.clear();
}

SmallVector<Value> KernelLowering::chunksOf(ValueRange values) {
  SmallVector<Value> out;
  for (Value value : values)
    out.push_back(chunk(value));
  return out;
}

void KernelLowering::cloneBody(Region &body, Operation *into,
                               ValueRange chunks) {
  Block &to = into->getRegion(0).emplaceBlock();
  for (Value chunk : chunks)
    to.addArgument(getElementType(chunk.getType()), into->getLoc());
  IRMapping map = scalars;
  for (auto [from, arg] : llvm::zip(body.getArguments(), to.getArguments()))
    map.map(from, arg);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(&to);
  for (Operation &op : body.front())
    if (auto yield = dyn_cast<sched::YieldOp>(op))
      kern::YieldOp::create(b, yield.getLoc(),
                            map.lookupOrDefault(yield.getValue()));
    else
      b.clone(op, map);
}

Value KernelLowering::chunk(Value value) {
  auto cached = chunks.find(value);
  if (cached != chunks.end())
    return cached->second;
  Location loc = value.getLoc();
  Type element = getElementType(value.getType());
  auto chunkType = ChunkType::get(b.getContext(), element);
  Value result;
  if (value.getDefiningOp<GroupMaxOp>()) {
    result = ReadGroupOp::create(b, loc, chunkType, groupTable);
  } else if (Value storage = kept.lookup(value)) {
    result = ReadKeptOp::create(b, loc, chunkType, storage);
  } else if (Value buffer = home.lookup(value)) {
    result = LoadChunkOp::create(b, loc, chunkType, buffer);
  } else if (isa<FeaturesType>(value.getType())) {
    result = LoadChunkOp::create(b, loc, chunkType, value);
  } else if (auto load = value.getDefiningOp<LoadRowOp>()) {
    result = LoadChunkOp::create(b, loc, chunkType, load.getSource());
  } else {
    auto map = value.getDefiningOp<MapOp>();
    SmallVector<Value> inputs = chunksOf(map.getInputs());
    Value count = map.getCount() ? scalars.lookup(map.getCount()) : Value();
    auto mapped = MapChunkOp::create(b, loc, chunkType, inputs, count);
    cloneBody(map.getBody(), mapped, inputs);
    result = mapped;
  }
  chunks[value] = result;
  return result;
}

void KernelLowering::keep(Value row) {
  Location loc = row.getLoc();
  Type element = getElementType(row.getType());
  Value storage;
  if (schedule.rowStorage == normc::RowStorage::Registers) {
    storage = AllocRowOp::create(
        b, loc, KeptType::get(b.getContext(), element),
        b.getI64IntegerAttr(normc::vectorsPerThread(schedule, *kernel.getD())));
  } else {
    storage = sharedSlots.lookup(row);
  }
  openChunkLoop(loc);
  Value value = chunk(row);
  KeepOp::create(b, loc, value, storage);
  closeChunkLoop();
  kept[row] = storage;
}

void KernelLowering::store(StoreRowOp op) {
  openChunkLoop(op.getLoc());
  StoreChunkOp::create(b, op.getLoc(), chunk(op.getValue()), op.getDest());
  closeChunkLoop();
  // Re-reading what this thread stored needs no barrier: every pass maps the
  // same features to the same thread.
  if (schedule.rowStorage == normc::RowStorage::Global &&
      !home.count(op.getValue()))
    home[op.getValue()] = op.getDest();
}

Value KernelLowering::reduce(ReduceOp op) {
  Location loc = op.getLoc();
  Type acc = op.getType();
  Combine combine = op.getCombine();
  // A maximum is the same in any order.
  if (rowKernel.getReproducible() && combine == Combine::sum)
    return treeSum(op);
  auto accumulator = AccumulatorOp::create(
      b, loc, AccumulatorType::get(b.getContext(), acc),
      /*compensated=*/acc.isF32() && combine == Combine::sum, combine,
      /*pairwise=*/IntegerAttr());
  openChunkLoop(loc);
  SmallVector<Value> inputs = chunksOf(op.getInputs());
  auto add = AccumulateOp::create(b, loc, accumulator, inputs,
                                  scalars.lookup(op.getCount()));
  cloneBody(op.getBody(), add, inputs);
  closeChunkLoop();
  Value total = ReadAccumulatorOp::create(b, loc, acc, accumulator);
  return crossThreadSum(loc, total, combine);
}

/// Levels of a binary counter that adds `values` values pairwise.
static int64_t treeLevels(int64_t values) {
  return llvm::Log2_64_Ceil(std::max<int64_t>(1, values)) + 1;
}

Value KernelLowering::treeSum(ReduceOp op) {
  // One tree over the feature index, padded with -0.0 to a power of two, the
  // lowest index bits added first: the vector's, the lanes', then the chunks'
  // (within a warp) or the warps' and chunks' (through the tile table: tile
  // t = chunk * warps + warp is the t-th run of 32 * vector_width features),
  // then the cluster's blocks, each an aligned power-of-two slice.
  Location loc = op.getLoc();
  Type acc = op.getType();
  int64_t threads = schedule.threadsPerRow;
  int64_t lanes = std::min<int64_t>(threads, 32);
  int64_t slice = kernel.getD()
                      ? normc::featuresPerBlock(schedule, *kernel.getD())
                      : normc::kMaxD;
  int64_t chunks = normc::divideCeil(slice, threads * schedule.vectorWidth);
  Value dest;
  bool inWarp = threads <= 32 && schedule.strategy != normc::Strategy::Cluster;
  if (inWarp) {
    dest =
        AccumulatorOp::create(b, loc, AccumulatorType::get(b.getContext(), acc),
                              /*compensated=*/false, Combine::sum,
                              b.getI64IntegerAttr(treeLevels(chunks)));
  } else {
    if (!tiles) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(rowLoop);
      tiles = SharedTilesOp::create(
          b, loc, GroupTableType::get(b.getContext(), acc),
          b.getI64IntegerAttr(32 * schedule.vectorWidth), IntegerAttr());
    }
    dest = tiles;
  }
  openChunkLoop(loc, /*uniform=*/true);
  SmallVector<Value> inputs = chunksOf(op.getInputs());
  auto add = TreeTileOp::create(b, loc, dest, inputs,
                                scalars.lookup(op.getCount()), lanes);
  cloneBody(op.getBody(), add, inputs);
  closeChunkLoop();
  if (inWarp)
    return ReadAccumulatorOp::create(b, loc, acc, dest);
  BarrierOp::create(b, loc);
  int64_t tilesPerRow = normc::divideCeil(slice, 32 * schedule.vectorWidth);
  Value total =
      TreeTotalOp::create(b, loc, acc, tiles,
                          b.getI64IntegerAttr(treeLevels(normc::divideCeil(
                              int64_t(llvm::PowerOf2Ceil(tilesPerRow)), 32))));
  // The table is written again by the next sum.
  BarrierOp::create(b, loc);
  if (schedule.strategy == normc::Strategy::Cluster)
    total = crossBlockSum(loc, total, Combine::sum, /*pairwise=*/true);
  return total;
}

void KernelLowering::groupMax(GroupMaxOp op) {
  // The table is one row per row group: clear it once the previous row's
  // readers are done, let every chunk raise its group's slot, and read it
  // once every chunk has.
  Location loc = op.getLoc();
  Block *block = b.getInsertionBlock();
  bool afterBarrier = b.getInsertionPoint() == block->end() &&
                      !block->empty() && isa<BarrierOp>(block->back());
  if (!afterBarrier)
    BarrierOp::create(b, loc);
  openChunkLoop(loc);
  ClearGroupOp::create(b, loc, groupTable);
  closeChunkLoop();
  BarrierOp::create(b, loc);
  openChunkLoop(loc);
  SmallVector<Value> inputs = chunksOf(op.getInputs());
  auto raise = AccumulateGroupMaxOp::create(b, loc, groupTable, inputs);
  cloneBody(op.getBody(), raise, inputs);
  closeChunkLoop();
  BarrierOp::create(b, loc);
}

void KernelLowering::storeGroups(StoreGroupsOp op) {
  openChunkLoop(op.getLoc());
  StoreGroupOp::create(b, op.getLoc(), chunk(op.getValue()), op.getDest(),
                       op.getGroupAttr());
  closeChunkLoop();
}

void KernelLowering::reduceRows(ReduceRowsOp op) {
  // A thread handles the same features in every row, so it can add them up
  // over its rows alone: in registers when the row is kept there, else in
  // its row group's row of the partials.
  Location loc = op.getLoc();
  Value partials = op.getPartials();
  Type acc = getElementType(partials.getType());
  bool registers = schedule.rowStorage == normc::RowStorage::Registers;
  Value sums = partials;
  {
    // Zero before the first row: a pass outside the row loop.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(rowLoop);
    if (registers)
      sums = AllocRowOp::create(b, loc, KeptType::get(b.getContext(), acc),
                                b.getI64IntegerAttr(normc::vectorsPerThread(
                                    schedule, *kernel.getD())));
    openChunkLoop(loc);
    auto zero = MapChunkOp::create(b, loc, ChunkType::get(b.getContext(), acc),
                                   ValueRange(), Value());
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(&zero.getBody().emplaceBlock());
    Value value =
        arith::ConstantOp::create(b, loc, acc, b.getFloatAttr(acc, 0.0));
    kern::YieldOp::create(b, loc, value);
    b.setInsertionPointAfter(zero);
    if (registers)
      KeepOp::create(b, loc, zero, sums);
    else
      StorePartialsOp::create(b, loc, zero, partials);
    closeChunkLoop();
  }
  openChunkLoop(loc);
  SmallVector<Value> inputs = chunksOf(op.getInputs());
  auto add = AccumulateRowOp::create(b, loc, sums, inputs);
  cloneBody(op.getBody(), add, inputs);
  closeChunkLoop();
  if (registers)
    registerSums.push_back({sums, partials});
}

Value KernelLowering::crossThreadSum(Location loc, Value value,
                                     Combine combine) {
  int64_t threads = schedule.threadsPerRow;
  if (threads > 1)
    value = WarpSumOp::create(
        b, loc, value.getType(), value,
        static_cast<uint64_t>(std::min<int64_t>(threads, 32)), combine);
  if (threads > 32)
    value = crossWarpSum(loc, value, combine);
  if (schedule.strategy == normc::Strategy::Cluster)
    value = crossBlockSum(loc, value, combine);
  return value;
}

Value KernelLowering::crossBlockSum(Location loc, Value value, Combine combine,
                                    bool pairwise) {
  if (!clusterSlot) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(rowLoop);
    clusterSlot = SharedClusterSlotOp::create(
        b, loc, ScratchType::get(b.getContext(), value.getType()));
  }
  ClusterWriteOp::create(b, loc, value, clusterSlot);
  ClusterBarrierOp::create(b, loc);
  value = ClusterSumOp::create(b, loc, value.getType(), clusterSlot, combine,
                               pairwise);
  // The slots are written again by the next reduction, and a block's shared
  // memory is gone once it ends: no block goes on while others may read.
  ClusterBarrierOp::create(b, loc);
  return value;
}

Value KernelLowering::crossWarpSum(Location loc, Value value, Combine combine) {
  int64_t threads = schedule.threadsPerRow;
  if (!scratch) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(rowLoop);
    scratch = SharedScratchOp::create(
        b, loc, ScratchType::get(b.getContext(), value.getType()),
        b.getI64IntegerAttr(threads / 32));
  }
  ScratchWriteOp::create(b, loc, value, scratch);
  BarrierOp::create(b, loc);
  value = ScratchSumOp::create(b, loc, value.getType(), scratch, combine);
  // The scratch is reused by the next reduction.
  BarrierOp::create(b, loc);
  return value;
}

LogicalResult KernelLowering::lower() {
  b.setInsertionPoint(rowKernel);
  kernel = kern::KernelOp::create(
      b, rowKernel.getLoc(), rowKernel.getSymNameAttr(), rowKernel.getDAttr(),
      rowKernel.getAccumulateAttr(), rowKernel.getScheduleAttr(),
      /*shared_layout=*/nullptr, rowKernel.getLaunchOrderAttr(),
      /*partial_rows=*/nullptr);
  // Reproducible sums over rows: a fixed number of partial rows.
  if (rowKernel.getReproducible() &&
      llvm::any_of(rowKernel.getBody().front(),
                   llvm::IsaPred<ReduceRowsOp, ReduceStatRowsOp>))
    kernel.setPartialRows(normc::kReproduciblePartialRows);
  Block &body = kernel.getBody().emplaceBlock();
  // The same buffers, in the same order: the kernel's arguments.
  SmallVector<Operation *> program;
  for (Operation &op : llvm::make_early_inc_range(rowKernel.getBody().front()))
    if (isa<BufferOp>(op))
      op.moveBefore(&body, body.end());
    else
      program.push_back(&op);

  b.setInsertionPointToEnd(&body);
  LogicalResult lowered = success();
  // A kernel that sums partials does nothing else (the verifier says so).
  if (!program.empty() && isa<SumPartialsOp>(program.front()))
    lowerSumPartials(program);
  else
    lowered = lowerRows(program);
  if (failed(lowered)) {
    kernel.erase();
    return failure();
  }
  for (Operation *op : llvm::reverse(program)) {
    op->dropAllUses();
    op->erase();
  }
  rowKernel.erase();
  return success();
}

void KernelLowering::lowerSumPartials(ArrayRef<Operation *> sums) {
  // One pass over the features: each thread adds every sum of its features.
  auto loop = ForFeaturesOp::create(b, kernel.getLoc());
  b.setInsertionPointToStart(&loop.getBody().emplaceBlock());
  for (Operation *op : sums) {
    auto sum = cast<SumPartialsOp>(op);
    Location loc = sum.getLoc();
    // A scalar's partials are in column 0.
    bool scalar = isa<ScalarType>(sum.getDest().getType());
    Value total =
        SumColumnOp::create(b, loc, kernel.getAccumulate(), sum.getPartials(),
                            sum.getCompensated(), scalar);
    // The accumulate type may be wider, narrower or as wide as the stored one.
    total = normc::norm::buildConvert(b, loc, total,
                                      getElementType(sum.getDest().getType()));
    StoreFeatureOp::create(b, loc, total, sum.getDest());
  }
}

LogicalResult KernelLowering::lowerRows(ArrayRef<Operation *> program) {
  bool global = schedule.rowStorage == normc::RowStorage::Global;
  // The shared-memory layout: a region per row value kept there.
  SmallVector<Operation *> regionOwners;
  SmallVector<Type> types;
  for (Operation *op : program)
    if (schedule.rowStorage == normc::RowStorage::Shared &&
        isa<LoadRowOp, MapOp>(op) && needsStorage(op->getResult(0))) {
      regionOwners.push_back(op);
      types.push_back(KeptType::get(
          b.getContext(), getElementType(op->getResult(0).getType())));
    }
  if (!regionOwners.empty()) {
    // kern-allocate-shared gives the slots their regions.
    auto rows = SharedRowsOp::create(b, kernel.getLoc(), types, IntegerAttr());
    for (auto [op, slot] : llvm::zip(regionOwners, rows.getResults()))
      sharedSlots[op->getResult(0)] = slot;
  }
  // The table of per-group maxima (one group_max a kernel: the verifier
  // allows one table).
  for (Operation *op : program)
    if (auto group = dyn_cast<GroupMaxOp>(op)) {
      if (groupTable)
        return group.emitOpError("is a second per-group maximum; a kernel "
                                 "has one group table");
      groupTable = SharedGroupsOp::create(
          b, group.getLoc(),
          GroupTableType::get(b.getContext(), kernel.getAccumulate()),
          group.getGroupAttr(), IntegerAttr());
    }
  auto loop = ForRowGroupsOp::create(b, kernel.getLoc());
  rowLoop = loop;
  b.setInsertionPointToStart(&loop.getBody().emplaceBlock());

  for (Operation *op : program) {
    if (auto load = dyn_cast<LoadRowOp>(op)) {
      if (global)
        home[load] = load.getSource();
      else if (needsStorage(load))
        keep(load);
    } else if (auto map = dyn_cast<MapOp>(op)) {
      if (!global && needsStorage(map))
        keep(map);
    } else if (auto storeRow = dyn_cast<StoreRowOp>(op)) {
      store(storeRow);
    } else if (auto red = dyn_cast<ReduceOp>(op)) {
      scalars.map(red.getResult(), reduce(red));
    } else if (auto group = dyn_cast<GroupMaxOp>(op)) {
      groupMax(group);
    } else if (auto storeGroup = dyn_cast<StoreGroupsOp>(op)) {
      storeGroups(storeGroup);
    } else if (auto rowsSum = dyn_cast<ReduceRowsOp>(op)) {
      reduceRows(rowsSum);
    } else if (auto statSum = dyn_cast<ReduceStatRowsOp>(op)) {
      // Zeroed before the first row, added to by every row.
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(rowLoop);
        ClearPartialOp::create(b, statSum.getLoc(), statSum.getPartials());
      }
      AddPartialOp::create(b, statSum.getLoc(),
                           scalars.lookupOrDefault(statSum.getValue()),
                           statSum.getPartials());
    } else if (auto stat = dyn_cast<StoreStatOp>(op)) {
      b.clone(*stat, scalars);
    } else if (op->getNumRegions() == 0) {
      b.clone(*op, scalars); // per-row scalar arithmetic
    } else {
      return op->emitOpError("cannot be lowered to the kern dialect");
    }
  }

  // After the last row: sums in registers go to the thread's partials.
  b.setInsertionPointAfter(loop);
  for (auto [sums, partials] : registerSums) {
    openChunkLoop(kernel.getLoc());
    Value chunk = ReadKeptOp::create(
        b, kernel.getLoc(),
        ChunkType::get(b.getContext(), getElementType(sums.getType())), sums);
    StorePartialsOp::create(b, kernel.getLoc(), chunk, partials);
    closeChunkLoop();
  }
  return success();
}

namespace {
struct ConvertSchedToKern
    : public normc::impl::ConvertSchedToKernBase<ConvertSchedToKern> {
  void runOnOperation() override {
    for (auto rowKernel :
         llvm::make_early_inc_range(getOperation().getOps<sched::KernelOp>())) {
      if (!rowKernel.getScheduleAttr()) {
        rowKernel.emitOpError("has no schedule; run sched-assign-schedule");
        return signalPassFailure();
      }
      if (failed(KernelLowering(rowKernel).lower()))
        return signalPassFailure();
    }
    if (failed(verify(getOperation())))
      signalPassFailure();
  }
};
} // namespace
