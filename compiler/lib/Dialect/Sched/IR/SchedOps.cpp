//===- SchedOps.cpp - Verifiers of the sched dialect ----------------------===//
//
// The verifiers reject what the CUDA emitter cannot emit or what could not
// run: names that are not C identifiers or collide with emitted ones,
// schedules checkSchedule refuses, ops and types the emitter has no
// spelling for, arithmetic outside the accumulate type, constants that are
// not finite, and kernels over the shared-memory or register limits.
//
//===----------------------------------------------------------------------===//
#include "normc/Dialect/Sched/IR/SchedOps.h"
#include "normc/Abi/KernelInfo.h"
#include "normc/Abi/ReservedNames.h"
#include "normc/Dialect/Sched/IR/ScalarOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace normc::sched;

Type normc::sched::getElementType(Type schedType) {
  return llvm::TypeSwitch<Type, Type>(schedType)
      .Case<RowsType, FeaturesType, StatsType, ScalarType, RowType, ChunkType,
            KeptType, ScratchType, AccumulatorType, PartialsType, GroupsType,
            GroupTableType>([](auto t) { return t.getElementType(); })
      .Default([](Type) { return Type(); });
}

bool normc::sched::needsStorage(Value row) {
  if (auto map = row.getDefiningOp<MapOp>(); map && map.getRecompute())
    return false;
  return isa<RowType>(row.getType()) && !row.hasOneUse() && !row.use_empty();
}

normc::ScheduleProblem normc::sched::getScheduleProblem(KernelOp kernel) {
  ScheduleProblem problem;
  if (kernel.getCols())
    problem.cols = *kernel.getCols();
  problem.widestBits = 8;
  for (Operation &op : kernel.getBody().front()) {
    if (auto buffer = dyn_cast<BufferOp>(op)) {
      problem.groups |= isa<GroupsType>(buffer.getType());
      problem.bytesRows |=
          isa<RowsType>(buffer.getType()) &&
          getElementType(buffer.getType()).getIntOrFloatBitWidth() == 8;
      if (!isa<StatsType, ScalarType, PartialsType, GroupsType>(
              buffer.getType()))
        problem.widestBits =
            std::max(problem.widestBits,
                     getElementType(buffer.getType()).getIntOrFloatBitWidth());
    } else if (isa<LoadRowOp, MapOp>(op) && needsStorage(op.getResult(0))) {
      problem.keptBits +=
          getElementType(op.getResult(0).getType()).getIntOrFloatBitWidth();
    } else if (auto sum = dyn_cast<ReduceRowsOp>(op)) {
      problem.sumBits +=
          sum.getPartials().getType().getElementType().getIntOrFloatBitWidth();
    } else if (auto sums = dyn_cast<AllocRowOp>(op)) {
      // Lowered: registers for sums over rows, before the row loop...
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

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static bool isStorageFloat(Type t) {
  return t.isF32() || t.isF16() || t.isBF16();
}
static bool isAccumulateFloat(Type t) { return isStorageFloat(t) || t.isF64(); }
static bool isFp8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

/// Which element types a sched type holds.
enum class Elements {
  Storage,    // f32, f16, bf16: what a per-feature buffer stores
  Rows,       // and fp8: what a [rows, d] buffer stores
  Accumulate, // f64, f32, f16, bf16: what arithmetic and statistics use
  RowValues,  // either: a row value or a chunk of it
};

static LogicalResult verifyElement(function_ref<InFlightDiagnostic()> emitError,
                                   Type element, Elements kind) {
  bool ok = false;
  const char *expected = "";
  switch (kind) {
  case Elements::Storage:
    ok = isStorageFloat(element), expected = "f32, f16 or bf16";
    break;
  case Elements::Rows:
    ok = isStorageFloat(element) || isFp8(element);
    expected = "f32, f16, bf16, f8E4M3FN or f8E5M2";
    break;
  case Elements::Accumulate:
    ok = isAccumulateFloat(element), expected = "f64, f32, f16 or bf16";
    break;
  case Elements::RowValues:
    ok = isAccumulateFloat(element) || isFp8(element);
    expected = "f64, f32, f16, bf16, f8E4M3FN or f8E5M2";
    break;
  }
  if (ok)
    return success();
  return emitError() << "element type must be " << expected << ", got "
                     << element;
}

#define NORMC_TYPE_VERIFIER(T, elements)                                       \
  LogicalResult T::verify(function_ref<InFlightDiagnostic()> emitError,        \
                          Type element) {                                      \
    return verifyElement(emitError, element, Elements::elements);              \
  }
NORMC_TYPE_VERIFIER(RowsType, Rows)
NORMC_TYPE_VERIFIER(FeaturesType, Storage)
NORMC_TYPE_VERIFIER(RowType, RowValues)
NORMC_TYPE_VERIFIER(ChunkType, RowValues)
NORMC_TYPE_VERIFIER(KeptType, Accumulate)
NORMC_TYPE_VERIFIER(StatsType, Accumulate)
NORMC_TYPE_VERIFIER(ScalarType, Accumulate)
NORMC_TYPE_VERIFIER(ScratchType, Accumulate)
NORMC_TYPE_VERIFIER(AccumulatorType, Accumulate)
NORMC_TYPE_VERIFIER(PartialsType, Accumulate)
NORMC_TYPE_VERIFIER(GroupsType, Accumulate)
NORMC_TYPE_VERIFIER(GroupTableType, Accumulate)

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

// #sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128,
//                 vector_width = 8, row_storage = registers>
Attribute ScheduleAttr::parse(AsmParser &parser, Type) {
  std::string strategy;
  if (parser.parseLess() || parser.parseKeywordOrString(&strategy))
    return {};
  std::string text = "strategy=" + strategy;
  while (succeeded(parser.parseOptionalComma())) {
    std::string key, value;
    if (parser.parseKeywordOrString(&key) || parser.parseEqual())
      return {};
    int64_t number;
    OptionalParseResult integer = parser.parseOptionalInteger(number);
    if (integer.has_value()) {
      if (failed(*integer))
        return {};
      value = std::to_string(number);
    } else if (parser.parseKeywordOrString(&value)) {
      return {};
    }
    text += "," + key + "=" + value;
  }
  if (parser.parseGreater())
    return {};
  std::optional<normc::Schedule> schedule = normc::Schedule::parse(text);
  if (!schedule) {
    parser.emitError(parser.getNameLoc(),
                     "malformed schedule; expected <row_group, "
                     "rows_per_block = N, threads_per_row = N, vector_width = "
                     "N, row_storage = registers|shared|global> or <cluster, "
                     "cluster_size = N, rows_per_block = 1, ...>");
    return {};
  }
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), *schedule);
}

void ScheduleAttr::print(AsmPrinter &printer) const {
  const normc::Schedule &s = getValue();
  printer << "<" << normc::toString(s.strategy);
  if (s.strategy == normc::Strategy::Cluster)
    printer << ", cluster_size = " << s.clusterSize;
  printer << ", rows_per_block = " << s.rowsPerBlock
          << ", threads_per_row = " << s.threadsPerRow
          << ", vector_width = " << s.vectorWidth
          << ", row_storage = " << normc::toString(*s.rowStorage) << ">";
}

LogicalResult ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   normc::Schedule schedule) {
  std::string why = normc::checkSchedule(schedule);
  if (!why.empty())
    return emitError() << "invalid schedule: " << why;
  return success();
}

//===----------------------------------------------------------------------===//
// SharedLayoutAttr
//===----------------------------------------------------------------------===//

// #sched.shared_layout<[<rows = 2, bytes = 2, vector_width = 8>,
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

bool KernelOp::isLowered() {
  return !getBody().getOps<ForRowGroupsOp>().empty() ||
         !getBody().getOps<SumPartialsOp>().empty();
}

LogicalResult KernelOp::verify() {
  std::string why =
      normc::checkEmittedName(getSymName(), normc::EmittedName::Kernel);
  if (!why.empty())
    return emitOpError("symbol '") << getSymName() << "' " << why;
  if (getCols() && (*getCols() < 1 || *getCols() > normc::kMaxCols))
    return emitOpError("cols must be in [1, ")
           << normc::kMaxCols << "], got " << *getCols();
  if (getLaunchOrderAttr().getInt() < 0)
    return emitOpError("launch_order must be non-negative, got ")
           << getLaunchOrderAttr().getInt();
  if (auto module = dyn_cast_or_null<ModuleOp>((*this)->getParentOp()))
    for (auto other : module.getOps<KernelOp>())
      if (other != *this && other.getLaunchOrder() == getLaunchOrder())
        return emitOpError("has the launch_order ")
               << getLaunchOrder() << " of @" << other.getSymName()
               << "; the kernels of a module run one after another";
  llvm::StringSet<> names;
  for (auto buffer : getBody().getOps<BufferOp>())
    if (!names.insert(buffer.getName()).second)
      return buffer.emitOpError()
             << "duplicate buffer '" << buffer.getName() << "'";
  if (ScheduleAttr schedule = getScheduleAttr()) {
    normc::ScheduleProblem problem = getScheduleProblem(*this);
    why = normc::checkSchedule(schedule.getValue(), &problem);
    if (!why.empty())
      return emitOpError("invalid schedule: ") << why;
  }
  return success();
}

static LogicalResult verifyScalarOp(Operation *op, Type accumulate) {
  for (Type t : op->getResultTypes()) {
    // Only a rounding makes fp8 (to store it); only a comparison, i1.
    bool fp8 = isFp8(t) && isa<arith::TruncFOp>(op);
    bool flag = t.isInteger(1) && isa<arith::CmpFOp>(op);
    if (!isAccumulateFloat(t) && !t.isInteger(32) && !fp8 && !flag)
      return op->emitOpError("result type ")
             << t << " cannot be emitted; expected f64, f32, f16, bf16 or i32";
  }
  if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
          arith::MinimumFOp, arith::MaximumFOp, arith::SelectOp, math::SqrtOp,
          math::RsqrtOp, math::AbsFOp, arith::SIToFPOp>(op) &&
      op->getResultTypes().front() != accumulate)
    return op->emitOpError("computes in ")
           << op->getResultTypes().front() << ", but the kernel accumulates in "
           << accumulate;
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (auto f = dyn_cast<FloatAttr>(constant.getValue()))
      if (!f.getValue().isFinite())
        return op->emitOpError("constant must be finite, got ")
               << f.getValueAsDouble();
    if (auto i = dyn_cast<IntegerAttr>(constant.getValue()))
      if (!i.getType().isInteger(32))
        return op->emitOpError("integer constants must be i32");
  }
  return success();
}

normc::SharedLayout normc::sched::getNeededSharedLayout(KernelOp kernel) {
  normc::SharedLayout layout;
  ScheduleAttr schedule = kernel.getScheduleAttr();
  if (!schedule)
    return layout;
  auto bytes = [](Type t) {
    return int64_t(getElementType(t).getIntOrFloatBitWidth() / 8);
  };
  for (auto rows : kernel.getBody().getOps<SharedRowsOp>())
    for (Type slot : rows.getResultTypes())
      layout.regions.push_back(normc::keptRowRegion(
          schedule.getValue(), kernel.getCols(), bytes(slot)));
  for (auto table : kernel.getBody().getOps<SharedGroupsOp>())
    layout.regions.push_back(normc::groupRegion(
        schedule.getValue(), table.getGroup(), bytes(table.getType())));
  return layout;
}

int64_t normc::sched::getStaticSharedBytes(KernelOp kernel) {
  int64_t rows = kernel.getScheduleAttr()
                     ? kernel.getScheduleAttr().getValue().rowsPerBlock
                     : 1;
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
                                      "sched-allocate-shared"
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
  for (auto table : kernel.getBody().getOps<SharedGroupsOp>())
    if (failed(checkRegion(table, table.getRegion(), slots,
                           ", after the kept rows")))
      return failure();
  if (!layout)
    return success();
  if (!(layout.getValue() == needed))
    return kernel.emitOpError("has the shared layout ")
           << layout << ", but its ops need "
           << SharedLayoutAttr::get(kernel.getContext(), needed);
  if (kernel.getCols()) {
    int64_t bytes = layout.getValue().bytes(*kernel.getCols()) +
                    getStaticSharedBytes(kernel);
    if (bytes > normc::kMaxSharedBytes)
      return kernel.emitOpError("needs ")
             << bytes << " bytes of shared memory at d = " << *kernel.getCols()
             << ", more than a block can have (" << normc::kMaxSharedBytes
             << ")";
  }
  return success();
}

static LogicalResult verifyGroupSize(Operation *op, int64_t group) {
  if (group < 16 || group > 1024 || (group & (group - 1)))
    return op->emitOpError("group must be a power of two in [16, 1024], got ")
           << group;
  return success();
}

std::optional<int64_t> normc::sched::getGroupSize(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case<GroupMaxOp, StoreGroupsOp, SharedGroupsOp, StoreGroupOp>(
          [](auto op) { return static_cast<int64_t>(op.getGroup()); })
      .Default([](Operation *) { return std::nullopt; });
}

Value normc::sched::getKeptRowAccessed(Operation *op) {
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([](ReadKeptOp read) { return read.getSource(); })
      .Case([](KeepOp keep) { return keep.getDest(); })
      .Case([](AsyncKeepOp copy) { return copy.getDest(); })
      .Default([](Operation *) { return Value(); });
}

int64_t normc::sched::chunkBytes(Type kept, int64_t vectorWidth) {
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
                               "into it is waited for (sched.async_wait)");
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
        "is not waited for (sched.async_wait) before the row ends");
  return success();
}

LogicalResult KernelOp::verifyRegions() {
  Type acc = getAccumulate();
  bool lowered = isLowered();
  std::optional<int64_t> kernelGroup;
  WalkResult walk = getBody().walk([&](Operation *op) -> WalkResult {
    if (op->getDialect() && op->getDialect()->getNamespace() == "sched") {
      bool rowLevel = isa<LoadRowOp, MapOp, ReduceOp, ReduceRowsOp, StoreRowOp,
                          GroupMaxOp, StoreGroupsOp>(op);
      bool kernelLevel = isa<ForRowGroupsOp, SharedRowsOp, SharedScratchOp,
                             SharedGroupsOp, StorePartialsOp>(op);
      // One kernel has one group size: its launch facts hold one.
      if (std::optional<int64_t> group = getGroupSize(op)) {
        if (failed(verifyGroupSize(op, *group)))
          return WalkResult::interrupt();
        if (kernelGroup && *kernelGroup != *group)
          return op->emitOpError("uses groups of ")
                 << *group << " features, but the kernel's are "
                 << *kernelGroup;
        kernelGroup = group;
      }
      if (lowered && rowLevel)
        return op->emitOpError("is a row-level op in a kernel already lowered "
                               "to loops");
      if (!lowered && kernelLevel)
        return op->emitOpError("needs sched.for_row_groups around the "
                               "kernel's body");
      return WalkResult::advance();
    }
    if (!getScalarForm(op))
      return op->emitOpError("cannot be emitted as CUDA");
    return failed(verifyScalarOp(op, acc)) ? WalkResult::interrupt()
                                           : WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // A [rows, groups] buffer is sized by the kernel's group size.
  if (!kernelGroup)
    for (auto buffer : getBody().getOps<BufferOp>())
      if (isa<GroupsType>(buffer.getType()))
        return buffer.emitOpError("is a [rows, groups] buffer, but no op of "
                                  "the kernel gives a group size");
  if (!lowered)
    return success();
  for (auto loop : getBody().getOps<ForRowGroupsOp>())
    if (failed(verifyAsyncCopies(loop)))
      return failure();
  if (!getScheduleAttr())
    return emitOpError("is lowered to loops but has no schedule");
  const normc::Schedule &schedule = getScheduleAttr().getValue();
  if (failed(verifySharedLayout(*this)))
    return failure();
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

LogicalResult BufferOp::verify() {
  std::string why =
      normc::checkEmittedName(getName(), normc::EmittedName::Parameter);
  if (!why.empty())
    return emitOpError("name '") << getName() << "' " << why;
  return success();
}

//===----------------------------------------------------------------------===//
// Row level
//===----------------------------------------------------------------------===//

/// A body's arguments are the element types of the operands, and it yields
/// `yielded`.
static LogicalResult verifyBody(Operation *op, Region &body, TypeRange inputs,
                                Type yielded) {
  Block &block = body.front();
  if (block.getNumArguments() != inputs.size())
    return op->emitOpError("body takes ")
           << block.getNumArguments() << " arguments for " << inputs.size()
           << " operands";
  for (auto [arg, input] : llvm::zip(block.getArguments(), inputs))
    if (arg.getType() != getElementType(input))
      return op->emitOpError("body argument of type ")
             << arg.getType() << " for an operand of " << input;
  auto yield =
      dyn_cast_or_null<YieldOp>(block.empty() ? nullptr : &block.back());
  if (!yield)
    return op->emitOpError("body must end with sched.yield");
  if (yield.getValue().getType() != yielded)
    return op->emitOpError("body yields ")
           << yield.getValue().getType() << ", expected " << yielded;
  // Rows and chunks only enter through the arguments: the body is scalar.
  WalkResult walk = body.walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (getElementType(operand.getType()))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return op->emitOpError("body may only use scalars from above");
  return success();
}

static Type kernelAccumulate(Operation *op) {
  return op->getParentOfType<KernelOp>().getAccumulate();
}

static void readFeatureOperands(
    MutableOperandRange inputs,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &input : inputs)
    if (isa<FeaturesType>(input.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &input);
}

LogicalResult MapOp::verify() {
  return verifyBody(*this, getBody(), getInputs().getTypes(),
                    getType().getElementType());
}

void MapOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  readFeatureOperands(getInputsMutable(), effects);
}

LogicalResult ReduceRowsOp::verify() {
  Type acc = kernelAccumulate(*this);
  if (getPartials().getType().getElementType() != acc)
    return emitOpError("partials of ")
           << getPartials().getType().getElementType()
           << ", but the kernel accumulates in " << acc;
  return verifyBody(*this, getBody(), getInputs().getTypes(), acc);
}

void ReduceRowsOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  readFeatureOperands(getInputsMutable(), effects);
  effects.emplace_back(MemoryEffects::Write::get(), &getPartialsMutable());
}

LogicalResult ReduceOp::verify() {
  if (getType() != kernelAccumulate(*this))
    return emitOpError("sums in ")
           << getType() << ", but the kernel accumulates in "
           << kernelAccumulate(*this);
  return verifyBody(*this, getBody(), getInputs().getTypes(), getType());
}

void ReduceOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  readFeatureOperands(getInputsMutable(), effects);
}

static LogicalResult verifySameElement(Operation *op, Type value, Type dest) {
  if (getElementType(value) != getElementType(dest))
    return op->emitOpError("value of ")
           << getElementType(value) << " cannot be stored into "
           << getElementType(dest);
  return success();
}

LogicalResult GroupMaxOp::verify() {
  return verifyBody(*this, getBody(), getInputs().getTypes(),
                    kernelAccumulate(*this));
}

void GroupMaxOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  readFeatureOperands(getInputsMutable(), effects);
}

LogicalResult StoreGroupsOp::verify() {
  return verifySameElement(*this, getValue().getType(), getDest().getType());
}

LogicalResult StoreRowOp::verify() {
  return verifySameElement(*this, getValue().getType(), getDest().getType());
}

LogicalResult FeatureCountOp::verify() {
  double f = getFraction().convertToDouble();
  if (!(f > 0.0 && f <= 1.0))
    return emitOpError("fraction must be in (0, 1], got ") << f;
  return success();
}

LogicalResult LoadScalarOp::verify() {
  if (getType() != getSource().getType().getElementType())
    return emitOpError("reads a scalar of ")
           << getSource().getType().getElementType() << " as " << getType();
  return success();
}

LogicalResult AccumulatorOp::verify() {
  if (getCompensated() && getCombine() != Combine::sum)
    return emitOpError("compensation applies to sums only");
  return success();
}

LogicalResult LoadStatOp::verify() {
  if (getType() != getSource().getType().getElementType())
    return emitOpError("reads ") << getSource().getType().getElementType()
                                 << " stats as " << getType();
  if (!isa<KernelOp, ForRowGroupsOp>((*this)->getParentOp()))
    return emitOpError("reads the current row: it belongs in the kernel's "
                       "body or its sched.for_row_groups");
  return success();
}

LogicalResult StoreStatOp::verify() {
  if (getValue().getType() != getDest().getType().getElementType())
    return emitOpError("value of type ")
           << getValue().getType() << " cannot be stored into stats of "
           << getDest().getType().getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// Kernel level
//===----------------------------------------------------------------------===//

LogicalResult SharedRowsOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (std::distance(kernel.getBody().getOps<SharedRowsOp>().begin(),
                    kernel.getBody().getOps<SharedRowsOp>().end()) != 1)
    return emitOpError("must be the kernel's only shared-memory layout");
  return success();
}

LogicalResult SharedScratchOp::verify() {
  int64_t warps = getWarps();
  if (warps < 2 || warps > 32 || (warps & (warps - 1)))
    return emitOpError("warps must be a power of two in [2, 32], got ")
           << warps;
  if (getType().getElementType() != kernelAccumulate(*this))
    return emitOpError("must hold the accumulate type");
  return success();
}

LogicalResult SharedGroupsOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (std::distance(kernel.getBody().getOps<SharedGroupsOp>().begin(),
                    kernel.getBody().getOps<SharedGroupsOp>().end()) != 1)
    return emitOpError("must be the kernel's only group table");
  // The table starts where the kept rows end.
  for (auto rows : kernel.getBody().getOps<SharedRowsOp>())
    if (!rows->isBeforeInBlock(*this))
      return emitOpError("must follow sched.shared_rows");
  if (getType().getElementType() != kernelAccumulate(*this))
    return emitOpError("must hold the accumulate type");
  return success();
}

static ScheduleAttr scheduleOf(Operation *op) {
  return op->getParentOfType<KernelOp>().getScheduleAttr();
}

LogicalResult ForChunksOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel.getScheduleAttr())
    return emitOpError("needs the kernel's schedule");
  if (auto unrolled = getUnrolled()) {
    if (!kernel.getCols())
      return emitOpError("unrolled needs cols fixed at compile time");
    int64_t expected = normc::vectorsPerThread(
        kernel.getScheduleAttr().getValue(), *kernel.getCols());
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
                           "sched.for_chunks unrolled(")
           << alloc.getVectors() << ")";
  return success();
}

LogicalResult LoadChunkOp::verify() {
  if (isa<RowsType>(getSource().getType()) &&
      !(*this)->getParentOfType<ForRowGroupsOp>())
    return emitOpError("loads a row outside sched.for_row_groups");
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
    return emitOpError("copies a row outside sched.for_row_groups");
  if (failed(
          verifySameElement(*this, getSource().getType(), getDest().getType())))
    return failure();
  if (!getDest().getDefiningOp<SharedRowsOp>())
    return emitOpError("copies only into shared memory (a row of "
                       "sched.shared_rows)");
  ScheduleAttr schedule = scheduleOf(*this);
  if (!schedule)
    return emitOpError("needs the kernel's schedule");
  int64_t bytes =
      chunkBytes(getDest().getType(), schedule.getValue().vectorWidth);
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
  return verifyBody(*this, getBody(), getInputs().getTypes(),
                    getAcc().getType().getElementType());
}

LogicalResult AccumulateGroupMaxOp::verify() {
  return verifyBody(*this, getBody(), getInputs().getTypes(),
                    getTable().getType().getElementType());
}

LogicalResult ReadGroupOp::verify() {
  if (!(*this)->getParentOfType<ForRowGroupsOp>())
    return emitOpError("reads the current row's groups outside "
                       "sched.for_row_groups");
  return verifySameElement(*this, getType(), getTable().getType());
}

LogicalResult StoreGroupOp::verify() {
  return verifySameElement(*this, getValue().getType(), getDest().getType());
}

static LogicalResult verifyAccumulateType(Operation *op, Type t) {
  if (t != kernelAccumulate(op))
    return op->emitOpError("sums in ")
           << t << ", but the kernel accumulates in " << kernelAccumulate(op);
  return success();
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
  if (ScheduleAttr schedule = scheduleOf(*this))
    if (lanes > schedule.getValue().threadsPerRow)
      return emitOpError("sums ")
             << lanes << " lanes, but a row has only "
             << schedule.getValue().threadsPerRow << " threads";
  return verifyAccumulateType(*this, getType());
}

static LogicalResult verifyScratchUse(Operation *op, Value scratch) {
  auto decl = scratch.getDefiningOp<SharedScratchOp>();
  ScheduleAttr schedule = scheduleOf(op);
  if (decl && schedule &&
      static_cast<int64_t>(decl.getWarps()) * 32 !=
          schedule.getValue().threadsPerRow)
    return op->emitOpError("the scratch has ")
           << decl.getWarps() << " warps a row, but a row has "
           << schedule.getValue().threadsPerRow << " threads";
  return success();
}

LogicalResult ScratchWriteOp::verify() {
  if (failed(verifyAccumulateType(*this, getValue().getType())))
    return failure();
  return verifyScratchUse(*this, getScratch());
}

LogicalResult ScratchSumOp::verify() {
  if (failed(verifyAccumulateType(*this, getType())))
    return failure();
  return verifyScratchUse(*this, getScratch());
}

//===----------------------------------------------------------------------===//
// Clusters
//===----------------------------------------------------------------------===//

static LogicalResult verifyInCluster(Operation *op) {
  ScheduleAttr schedule = scheduleOf(op);
  if (schedule && schedule.getValue().strategy != normc::Strategy::Cluster)
    return op->emitOpError("needs a kernel of strategy cluster");
  return success();
}

static LogicalResult verifySlotUse(Operation *op, Value slot) {
  if (!slot.getDefiningOp<SharedClusterSlotOp>())
    return op->emitOpError("needs a slot of sched.shared_cluster_slot");
  return verifyInCluster(op);
}

LogicalResult SharedClusterSlotOp::verify() {
  if (getType().getElementType() != kernelAccumulate(*this))
    return emitOpError("must hold the accumulate type");
  return verifyInCluster(*this);
}

LogicalResult ClusterWriteOp::verify() {
  if (failed(verifyAccumulateType(*this, getValue().getType())))
    return failure();
  return verifySlotUse(*this, getSlot());
}

LogicalResult ClusterSumOp::verify() {
  if (failed(verifyAccumulateType(*this, getType())))
    return failure();
  return verifySlotUse(*this, getSlot());
}

LogicalResult ClusterBarrierOp::verify() { return verifyInCluster(*this); }

//===----------------------------------------------------------------------===//
// Reductions across rows
//===----------------------------------------------------------------------===//

LogicalResult AccumulateRowOp::verify() {
  if (!(*this)->getParentOfType<ForRowGroupsOp>())
    return emitOpError("adds a row outside sched.for_row_groups");
  Type element = getElementType(getSums().getType());
  if (failed(verifyAccumulateType(*this, element)))
    return failure();
  if (failed(verifyKeptAccess(*this, getSums())))
    return failure();
  return verifyBody(*this, getBody(), getInputs().getTypes(), element);
}

LogicalResult StorePartialsOp::verify() {
  return verifySameElement(*this, getValue().getType(),
                           getPartials().getType());
}

LogicalResult SumPartialsOp::verify() {
  if (failed(verifyAccumulateType(*this,
                                  getPartials().getType().getElementType())))
    return failure();
  for (Operation &op : (*this)->getBlock()->getOperations())
    if (!isa<BufferOp, SumPartialsOp>(op))
      return op.emitOpError("cannot share a kernel with sched.sum_partials");
  return success();
}

#define GET_OP_CLASSES
#include "normc/Dialect/Sched/IR/SchedOps.cpp.inc"
