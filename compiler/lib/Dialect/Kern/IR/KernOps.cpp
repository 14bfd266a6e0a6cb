//===- KernOps.cpp - Verifiers of the kern dialect ------------------------===//
//
// The verifiers reject what the CUDA emitter cannot emit or what could not
// run: ops outside the loop they need, storage that does not match the
// schedule, asynchronous copies not waited for, shared layouts other than
// the ops need, and kernels over the shared-memory or register limits.
//
//===----------------------------------------------------------------------===//
#include "normc/Dialect/Kern/IR/KernOps.h"
#include "normc/Abi/KernelInfo.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace normc::kern;
using normc::sched::AccumulatorType;
using normc::sched::BufferOp;
using normc::sched::ChunkType;
using normc::sched::Combine;
using normc::sched::getElementType;
using normc::sched::GroupsType;
using normc::sched::KeptType;
using normc::sched::PartialsType;
using normc::sched::RowsType;
using normc::sched::verifyAccumulateType;
using normc::sched::verifyBody;
using normc::sched::verifySameElement;

//===----------------------------------------------------------------------===//
// SharedLayoutAttr
//===----------------------------------------------------------------------===//

// #kern.shared_layout<[<rows = 2, bytes = 2, vector_width = 8>,
//                       <rows = 2, bytes = 4, group = 64>]>
Attribute SharedLayoutAttr::parse(AsmParser &parser, Type) {
  normc::SharedLayout layout;
  auto parseRegion = [&]() -> ParseResult {
    normc::SharedRegion &r = layout.regions.emplace_back();
    r.vectorWidth = 0;
    auto parseField = [&]() -> ParseResult {
      llvm::SMLoc loc = parser.getCurrentLocation();
      StringRef key;
      int64_t value;
      if (parser.parseKeyword(&key) || parser.parseEqual() ||
          parser.parseInteger(value))
        return failure();
      int64_t *field = llvm::StringSwitch<int64_t *>(key)
                           .Case("rows", &r.rows)
                           .Case("bytes", &r.elementBytes)
                           .Case("vector_width", &r.vectorWidth)
                           .Case("features", &r.features)
                           .Case("group", &r.group)
                           .Default(nullptr);
      if (!field)
        return parser.emitError(loc, "unknown region field '")
               << key
               << "'; expected rows, bytes, vector_width, features or group";
      *field = value;
      return success();
    };
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                       parseField))
      return failure();
    if (!r.vectorWidth)
      r.vectorWidth = 1;
    return success();
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     parseRegion) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), layout);
}

void SharedLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(
      getValue().regions, printer, [&](const normc::SharedRegion &r) {
        printer << "<rows = " << r.rows << ", bytes = " << r.elementBytes;
        if (r.group)
          printer << ", group = " << r.group;
        else
          printer << ", vector_width = " << r.vectorWidth;
        if (r.features)
          printer << ", features = " << r.features;
        printer << ">";
      });
  printer << "]>";
}

LogicalResult
SharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         normc::SharedLayout layout) {
  for (const normc::SharedRegion &region : layout.regions)
    if (std::string why = region.check(); !why.empty())
      return emitError() << "invalid shared layout: " << why;
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

normc::ScheduleProblem normc::kern::getScheduleProblem(KernelOp kernel) {
  ScheduleProblem problem = sched::getBufferProblem(kernel);
  for (Operation &op : kernel.getBody().front()) {
    if (auto sums = dyn_cast<AllocRowOp>(op)) {
      // Registers for sums over rows, before the row loop...
      problem.sumBits += getElementType(sums.getType()).getIntOrFloatBitWidth();
    } else if (auto layout = dyn_cast<SharedRowsOp>(op)) {
      // ...and rows kept in shared memory or, inside the loop, registers.
      for (Type slot : layout.getResultTypes())
        problem.keptBits += getElementType(slot).getIntOrFloatBitWidth();
    } else if (auto loop = dyn_cast<ForRowGroupsOp>(op)) {
      for (auto kept : loop.getBody().getOps<AllocRowOp>())
        problem.keptBits +=
            getElementType(kept.getType()).getIntOrFloatBitWidth();
    }
  }
  return problem;
}

normc::SharedLayout normc::kern::getNeededSharedLayout(KernelOp kernel) {
  normc::SharedLayout layout;
  const normc::Schedule &schedule = kernel.getSchedule().getValue();
  auto bytes = [](Type t) {
    return int64_t(getElementType(t).getIntOrFloatBitWidth() / 8);
  };
  for (auto rows : kernel.getBody().getOps<SharedRowsOp>())
    for (Type slot : rows.getResultTypes())
      layout.regions.push_back(
          normc::keptRowRegion(schedule, kernel.getD(), bytes(slot)));
  for (auto table : kernel.getBody().getOps<SharedGroupsOp>())
    layout.regions.push_back(
        normc::groupRegion(schedule, table.getGroup(), bytes(table.getType())));
  for (auto tiles : kernel.getBody().getOps<SharedTilesOp>())
    layout.regions.push_back(
        normc::groupRegion(schedule, tiles.getTile(), bytes(tiles.getType())));
  return layout;
}

int64_t normc::kern::getStaticSharedBytes(KernelOp kernel) {
  int64_t rows = kernel.getSchedule().getValue().rowsPerBlock;
  int64_t total = 0;
  for (auto scratch : kernel.getBody().getOps<SharedScratchOp>())
    total += rows * scratch.getWarps() *
             getElementType(scratch.getType()).getIntOrFloatBitWidth() / 8;
  for (auto slot : kernel.getBody().getOps<SharedClusterSlotOp>())
    total += getElementType(slot.getType()).getIntOrFloatBitWidth() / 8;
  return total;
}

/// The kernel's shared layout holds exactly the regions its ops need, each
/// op names its first region, and at d fixed it all fits in a block.
static LogicalResult verifySharedLayout(KernelOp kernel) {
  normc::SharedLayout needed = getNeededSharedLayout(kernel);
  SharedLayoutAttr layout = kernel.getSharedLayoutAttr();
  // Each op names the region it starts at, `first`, exactly when the kernel
  // has a layout.
  auto checkRegion = [&](Operation *op, std::optional<uint64_t> region,
                         int64_t first, StringRef where) -> LogicalResult {
    if (region.has_value() != bool(layout))
      return op->emitOpError(layout ? "needs its region in the kernel's "
                                      "shared layout; run "
                                      "kern-allocate-shared"
                                    : "names a region, but the kernel has "
                                      "no shared layout");
    if (layout && int64_t(*region) != first)
      return op->emitOpError("must take region ")
             << first << where << "; got " << *region;
    return success();
  };
  int64_t slots = 0;
  for (auto rows : kernel.getBody().getOps<SharedRowsOp>()) {
    if (failed(checkRegion(rows, rows.getRegion(), 0, ", the first")))
      return failure();
    slots += rows.getNumResults();
  }
  for (auto table : kernel.getBody().getOps<SharedGroupsOp>()) {
    if (failed(checkRegion(table, table.getRegion(), slots,
                           ", after the kept rows")))
      return failure();
    ++slots;
  }
  for (auto tiles : kernel.getBody().getOps<SharedTilesOp>())
    if (failed(checkRegion(tiles, tiles.getRegion(), slots, ", the last")))
      return failure();
  if (!layout)
    return success();
  if (!(layout.getValue() == needed))
    return kernel.emitOpError("has the shared layout ")
           << layout << ", but its ops need "
           << SharedLayoutAttr::get(kernel.getContext(), needed);
  if (kernel.getD()) {
    int64_t bytes =
        layout.getValue().bytes(*kernel.getD()) + getStaticSharedBytes(kernel);
    if (bytes > normc::kMaxSharedBytes)
      return kernel.emitOpError("needs ")
             << bytes << " bytes of shared memory at d = " << *kernel.getD()
             << ", more than a block can have (" << normc::kMaxSharedBytes
             << ")";
  }
  return success();
}

Value normc::kern::getKeptRowAccessed(Operation *op) {
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([](ReadKeptOp read) { return read.getSource(); })
      .Case([](KeepOp keep) { return keep.getDest(); })
      .Case([](AsyncKeepOp copy) { return copy.getDest(); })
      .Default([](Operation *) { return Value(); });
}

int64_t normc::kern::chunkBytes(Type kept, int64_t vectorWidth) {
  return vectorWidth * getElementType(kept).getIntOrFloatBitWidth() / 8;
}

/// A thread waits for its asynchronous copies into a kept row before it
/// reads that row, writes it again, or ends the row.
static LogicalResult verifyAsyncCopies(ForRowGroupsOp loop) {
  llvm::MapVector<Value, AsyncKeepOp> inFlight;
  for (Operation &op : loop.getBody().front()) {
    if (isa<AsyncWaitOp>(op)) {
      inFlight.clear();
      continue;
    }
    WalkResult walk = op.walk([&](Operation *inner) -> WalkResult {
      Value kept = getKeptRowAccessed(inner);
      if (kept && inFlight.count(kept)) {
        InFlightDiagnostic diag =
            inner->emitOpError("uses a kept row before the asynchronous copy "
                               "into it is waited for (kern.async_wait)");
        diag.attachNote(inFlight[kept].getLoc()) << "the copy";
        return WalkResult::interrupt();
      }
      if (auto copy = dyn_cast<AsyncKeepOp>(inner))
        inFlight[copy.getDest()] = copy;
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  if (!inFlight.empty())
    return inFlight.begin()->second.emitOpError(
        "is not waited for (kern.async_wait) before the row ends");
  return success();
}

LogicalResult KernelOp::verify() {
  if (failed(sched::verifyKernelHeader(*this, getSymName(), getLaunchOrder())))
    return failure();
  normc::ScheduleProblem problem = getScheduleProblem(*this);
  std::string why = normc::checkSchedule(getSchedule().getValue(), &problem);
  if (!why.empty())
    return emitOpError("invalid schedule: ") << why;
  return success();
}

LogicalResult KernelOp::verifyRegions() {
  if (failed(sched::verifyKernelBody(*this)))
    return failure();
  // One loop runs the kernel.
  int64_t loops = 0;
  for (Operation &op : getBody().front())
    loops += isa<ForRowGroupsOp, ForFeaturesOp>(op);
  if (loops != 1)
    return emitOpError("must run one kern.for_row_groups or kern.for_features, "
                       "has ")
           << loops;
  for (auto loop : getBody().getOps<ForRowGroupsOp>())
    if (failed(verifyAsyncCopies(loop)))
      return failure();
  const normc::Schedule &schedule = getSchedule().getValue();
  if (failed(verifySharedLayout(*this)))
    return failure();
  if (std::optional<int64_t> partialRows = getPartialRows()) {
    bool storesPartials = false;
    walk([&](StorePartialsOp) { storesPartials = true; });
    if (!storesPartials)
      return emitOpError("has partial_rows but stores no partials");
    if (*partialRows < 1 || *partialRows > normc::kReproduciblePartialRows ||
        *partialRows % schedule.rowsPerBlock)
      return emitOpError("partial_rows must be a multiple of rows_per_block (")
             << schedule.rowsPerBlock << ") in [1, "
             << normc::kReproduciblePartialRows << "], got " << *partialRows;
  }
  int64_t words = 0;
  getBody().walk([&](AllocRowOp alloc) {
    words += alloc.getVectors() * schedule.vectorWidth *
             getElementType(alloc.getType()).getIntOrFloatBitWidth() / 32;
  });
  if (words > normc::keptRegisterBudget(schedule.blockSize()))
    return emitOpError("keeps ")
           << words << " registers a thread in rows, more than the "
           << normc::keptRegisterBudget(schedule.blockSize()) << " a block of "
           << schedule.blockSize() << " threads leaves";
  return success();
}

//===----------------------------------------------------------------------===//
// Storage, the row loop, reductions across threads
//===----------------------------------------------------------------------===//

/// Whether `op` is the only op of its kind in its kernel.
template <typename OpT> static bool isOnlyOneInKernel(OpT op) {
  auto ops =
      op->template getParentOfType<KernelOp>().getBody().template getOps<OpT>();
  return std::next(ops.begin()) == ops.end();
}

LogicalResult SharedRowsOp::verify() {
  if (!isOnlyOneInKernel(*this))
    return emitOpError("must be the kernel's only shared-memory layout");
  return success();
}

LogicalResult SharedScratchOp::verify() {
  int64_t warps = getWarps();
  if (warps < 2 || warps > 32 || (warps & (warps - 1)))
    return emitOpError("warps must be a power of two in [2, 32], got ")
           << warps;
  if (getType().getElementType() != sched::getKernelAccumulate(*this))
    return emitOpError("must hold the accumulate type");
  return success();
}

LogicalResult SharedGroupsOp::verify() {
  if (!isOnlyOneInKernel(*this))
    return emitOpError("must be the kernel's only group table");
  auto kernel = (*this)->getParentOfType<KernelOp>();
  // The table starts where the kept rows end.
  for (auto rows : kernel.getBody().getOps<SharedRowsOp>())
    if (!rows->isBeforeInBlock(*this))
      return emitOpError("must follow kern.shared_rows");
  if (getType().getElementType() != sched::getKernelAccumulate(*this))
    return emitOpError("must hold the accumulate type");
  return success();
}

static normc::Schedule scheduleOf(Operation *op) {
  return op->getParentOfType<KernelOp>().getSchedule().getValue();
}

LogicalResult ForChunksOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (auto unrolled = getUnrolled()) {
    if (!kernel.getD())
      return emitOpError("unrolled needs d fixed at compile time");
    int64_t expected = normc::vectorsPerThread(kernel.getSchedule().getValue(),
                                               *kernel.getD());
    if (static_cast<int64_t>(*unrolled) != expected)
      return emitOpError("unrolled(")
             << *unrolled << ") must cover the row: " << expected
             << " chunks a thread";
  }
  return success();
}

/// Register-kept rows are indexed by the chunk's slot: only an unrolled
/// loop of as many chunks has one.
static LogicalResult verifyKeptAccess(Operation *op, Value kept) {
  auto alloc = kept.getDefiningOp<AllocRowOp>();
  if (!alloc)
    return success();
  auto loop = op->getParentOfType<ForChunksOp>();
  if (!loop.getUnrolled() || *loop.getUnrolled() != alloc.getVectors())
    return op->emitOpError("register-kept rows are only accessed in "
                           "kern.for_chunks unrolled(")
           << alloc.getVectors() << ")";
  return success();
}

LogicalResult LoadChunkOp::verify() {
  if (isa<RowsType>(getSource().getType()) &&
      !(*this)->getParentOfType<ForRowGroupsOp>())
    return emitOpError("loads a row outside kern.for_row_groups");
  return verifySameElement(*this, getType(), getSource().getType());
}

LogicalResult StoreChunkOp::verify() {
  return verifySameElement(*this, getValue().getType(), getDest().getType());
}

LogicalResult KeepOp::verify() {
  if (failed(
          verifySameElement(*this, getValue().getType(), getDest().getType())))
    return failure();
  return verifyKeptAccess(*this, getDest());
}

LogicalResult AsyncKeepOp::verify() {
  if (!(*this)->getParentOfType<ForRowGroupsOp>())
    return emitOpError("copies a row outside kern.for_row_groups");
  if (failed(
          verifySameElement(*this, getSource().getType(), getDest().getType())))
    return failure();
  if (!getDest().getDefiningOp<SharedRowsOp>())
    return emitOpError("copies only into shared memory (a row of "
                       "kern.shared_rows)");
  int64_t bytes =
      chunkBytes(getDest().getType(), scheduleOf(*this).vectorWidth);
  if (!isAsyncCopySize(bytes))
    return emitOpError("copies chunks of ")
           << bytes << " bytes; asynchronous copies take 4 to 64";
  return success();
}

LogicalResult ReadKeptOp::verify() {
  if (failed(verifySameElement(*this, getType(), getSource().getType())))
    return failure();
  return verifyKeptAccess(*this, getSource());
}

LogicalResult MapChunkOp::verify() {
  return verifyBody(*this, getBody(), getInputs().getTypes(),
                    getType().getElementType());
}

LogicalResult AccumulateOp::verify() {
  auto acc = getAcc().getDefiningOp<AccumulatorOp>();
  if (acc && acc.getPairwise())
    return emitOpError("cannot add terms in order to a pairwise accumulator; "
                       "kern.tree_tile adds to it");
  return verifyBody(*this, getBody(), getInputs().getTypes(),
                    getAcc().getType().getElementType());
}

/// The per-group ops take the table of kern.shared_groups, not the tile
/// table of reproducible sums.
static LogicalResult verifyGroupTable(Operation *op, Value table) {
  if (!table.getDefiningOp<SharedGroupsOp>())
    return op->emitOpError("needs a table of kern.shared_groups");
  return success();
}

LogicalResult ClearGroupOp::verify() {
  return verifyGroupTable(*this, getTable());
}

LogicalResult AccumulateGroupMaxOp::verify() {
  if (failed(verifyGroupTable(*this, getTable())))
    return failure();
  return verifyBody(*this, getBody(), getInputs().getTypes(),
                    getTable().getType().getElementType());
}

LogicalResult ReadGroupOp::verify() {
  if (!(*this)->getParentOfType<ForRowGroupsOp>())
    return emitOpError("reads the current row's groups outside "
                       "kern.for_row_groups");
  if (failed(verifyGroupTable(*this, getTable())))
    return failure();
  return verifySameElement(*this, getType(), getTable().getType());
}

LogicalResult StoreGroupOp::verify() {
  return verifySameElement(*this, getValue().getType(), getDest().getType());
}

LogicalResult ReadAccumulatorOp::verify() {
  if (getType() != getAcc().getType().getElementType())
    return emitOpError("reads ") << getType() << " from " << getAcc().getType();
  return verifyAccumulateType(*this, getType());
}

LogicalResult WarpSumOp::verify() {
  int64_t lanes = getLanes();
  if (lanes < 2 || lanes > 32 || (lanes & (lanes - 1)))
    return emitOpError("lanes must be a power of two in [2, 32], got ")
           << lanes;
  if (lanes > scheduleOf(*this).threadsPerRow)
    return emitOpError("sums ")
           << lanes << " lanes, but a row has only "
           << scheduleOf(*this).threadsPerRow << " threads";
  return verifyAccumulateType(*this, getType());
}

/// `op` writes or reads a value of type `value` in `scratch`.
static LogicalResult verifyScratchUse(Operation *op, Type value,
                                      Value scratch) {
  if (failed(verifyAccumulateType(op, value)))
    return failure();
  auto decl = scratch.getDefiningOp<SharedScratchOp>();
  int64_t threads = scheduleOf(op).threadsPerRow;
  if (decl && static_cast<int64_t>(decl.getWarps()) * 32 != threads)
    return op->emitOpError("the scratch has ")
           << decl.getWarps() << " warps a row, but a row has " << threads
           << " threads";
  return success();
}

LogicalResult ScratchWriteOp::verify() {
  return verifyScratchUse(*this, getValue().getType(), getScratch());
}

LogicalResult ScratchSumOp::verify() {
  return verifyScratchUse(*this, getType(), getScratch());
}

//===----------------------------------------------------------------------===//
// Clusters
//===----------------------------------------------------------------------===//

static LogicalResult verifyInCluster(Operation *op) {
  if (scheduleOf(op).strategy != normc::Strategy::Cluster)
    return op->emitOpError("needs a kernel of strategy cluster");
  return success();
}

/// `op` writes or reads a value of type `value` in `slot`.
static LogicalResult verifySlotUse(Operation *op, Type value, Value slot) {
  if (failed(verifyAccumulateType(op, value)))
    return failure();
  if (!slot.getDefiningOp<SharedClusterSlotOp>())
    return op->emitOpError("needs a slot of kern.shared_cluster_slot");
  return verifyInCluster(op);
}

LogicalResult SharedClusterSlotOp::verify() {
  if (getType().getElementType() != sched::getKernelAccumulate(*this))
    return emitOpError("must hold the accumulate type");
  return verifyInCluster(*this);
}

LogicalResult ClusterWriteOp::verify() {
  return verifySlotUse(*this, getValue().getType(), getSlot());
}

LogicalResult ClusterSumOp::verify() {
  int64_t blocks = scheduleOf(*this).clusterSize;
  if (getPairwise() &&
      (getCombine() != Combine::sum || (blocks & (blocks - 1))))
    return emitOpError("a pairwise tree adds a power of two of slots, got ")
           << blocks << (getCombine() != Combine::sum ? " maxima" : "");
  return verifySlotUse(*this, getType(), getSlot());
}

LogicalResult ClusterBarrierOp::verify() { return verifyInCluster(*this); }

//===----------------------------------------------------------------------===//
// Reductions across rows
//===----------------------------------------------------------------------===//

LogicalResult AccumulateRowOp::verify() {
  if (!(*this)->getParentOfType<ForRowGroupsOp>())
    return emitOpError("adds a row outside kern.for_row_groups");
  // In the type of the sums over rows, which may differ from the kernel's
  // accumulate type (sched.reduce_rows).
  Type element = getElementType(getSums().getType());
  if (failed(verifyKeptAccess(*this, getSums())))
    return failure();
  return verifyBody(*this, getBody(), getInputs().getTypes(), element);
}

LogicalResult StorePartialsOp::verify() {
  return verifySameElement(*this, getValue().getType(),
                           getPartials().getType());
}

LogicalResult AccumulatorOp::verify() {
  if (getCompensated() && getCombine() != Combine::sum)
    return emitOpError("compensation applies to sums only");
  if (std::optional<int64_t> levels = getPairwise()) {
    if (getCompensated() || getCombine() != Combine::sum)
      return emitOpError("a pairwise accumulator is a plain sum");
    if (*levels < 1 || *levels > kMaxTreeLevels)
      return emitOpError("pairwise needs 1 to ")
             << kMaxTreeLevels << " levels, got " << *levels;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The fixed reduction tree
//===----------------------------------------------------------------------===//

LogicalResult SharedTilesOp::verify() {
  if (!isOnlyOneInKernel(*this))
    return emitOpError("must be the kernel's only tile table");
  auto kernel = (*this)->getParentOfType<KernelOp>();
  // The table is the layout's last region.
  for (Operation &before : kernel.getBody().front())
    if (isa<SharedRowsOp, SharedGroupsOp>(before) &&
        !before.isBeforeInBlock(*this))
      return emitOpError("must follow kern.shared_rows and kern.shared_groups");
  if (getType().getElementType() != sched::getKernelAccumulate(*this))
    return emitOpError("must hold the accumulate type");
  int64_t tile = 32 * kernel.getSchedule().getValue().vectorWidth;
  if (static_cast<int64_t>(getTile()) != tile)
    return emitOpError("a tile is a warp's chunk, ")
           << tile << " features; got " << getTile();
  return success();
}

LogicalResult TreeTileOp::verify() {
  normc::Schedule schedule = scheduleOf(*this);
  int64_t lanes = getLanes();
  auto loop = (*this)->getParentOfType<ForChunksOp>();
  if (!loop.getUniform() && !loop.getUnrolled())
    return emitOpError("shuffles across lanes, so its kern.for_chunks must be "
                       "uniform or unrolled");
  if (!(*this)->getParentOfType<ForRowGroupsOp>())
    return emitOpError("adds a row outside kern.for_row_groups");
  if (auto acc = getDest().getDefiningOp<AccumulatorOp>()) {
    if (!acc.getPairwise())
      return emitOpError("adds to a pairwise accumulator or a tile table");
    if (lanes != schedule.threadsPerRow ||
        schedule.strategy == normc::Strategy::Cluster)
      return emitOpError("a pairwise accumulator takes tiles of the whole row "
                         "group's lanes (")
             << schedule.threadsPerRow << ") outside a cluster; got lanes("
             << lanes << ")";
  } else if (getDest().getDefiningOp<SharedTilesOp>()) {
    bool cluster = schedule.strategy == normc::Strategy::Cluster;
    if (lanes != 32 || schedule.threadsPerRow < 32 ||
        (schedule.threadsPerRow == 32 && !cluster))
      return emitOpError("a tile table takes the tiles of the 32 lanes of a "
                         "warp, in rows of more than one warp or a cluster; "
                         "got lanes(")
             << lanes << ") with " << schedule.threadsPerRow
             << " threads a row";
  } else {
    return emitOpError("adds to a pairwise accumulator or a tile table");
  }
  if (lanes < 1 || lanes > 32 || (lanes & (lanes - 1)))
    return emitOpError("lanes must be a power of two in [1, 32], got ")
           << lanes;
  return verifyBody(*this, getBody(), getInputs().getTypes(),
                    getElementType(getDest().getType()));
}

LogicalResult TreeTotalOp::verify() {
  if (!getTiles().getDefiningOp<SharedTilesOp>())
    return emitOpError("needs a table of kern.shared_tiles");
  if (getType() != getElementType(getTiles().getType()))
    return emitOpError("reads ") << getTiles().getType() << " as " << getType();
  int64_t depth = getDepth();
  if (depth < 1 || depth > kMaxTreeLevels)
    return emitOpError("depth must be in [1, ")
           << kMaxTreeLevels << "], got " << depth;
  return verifyAccumulateType(*this, getType());
}

//===----------------------------------------------------------------------===//
// Sums of partial rows
//===----------------------------------------------------------------------===//

LogicalResult SumColumnOp::verify() {
  if (getType() != getPartials().getType().getElementType())
    return emitOpError("reads ")
           << getPartials().getType() << " as " << getType();
  return verifyAccumulateType(*this, getType());
}

LogicalResult AddPartialOp::verify() {
  if (getValue().getType() != getPartials().getType().getElementType())
    return emitOpError("adds ") << getValue().getType() << " into partials of "
                                << getPartials().getType().getElementType();
  return success();
}

LogicalResult StoreFeatureOp::verify() {
  if (getValue().getType() != getElementType(getDest().getType()))
    return emitOpError("value of type ")
           << getValue().getType() << " cannot be stored into "
           << getDest().getType();
  return success();
}

#define GET_OP_CLASSES
#include "normc/Dialect/Kern/IR/KernOps.cpp.inc"
