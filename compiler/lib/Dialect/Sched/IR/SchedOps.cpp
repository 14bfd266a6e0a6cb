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
using normc::ElementType;
using normc::elementTypesWithRole;
using normc::hasElementRole;

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

normc::ScheduleProblem normc::sched::getBufferProblem(KernelInterface kernel) {
  ScheduleProblem problem;
  if (std::optional<uint64_t> d = kernel.getKernelD())
    problem.d = *d;
  problem.widestBits = 8;
  for (auto buffer : kernel->getRegion(0).getOps<BufferOp>()) {
    Type element = getElementType(buffer.getType());
    problem.groups |= isa<GroupsType>(buffer.getType());
    problem.bytesRows |=
        isa<RowsType>(buffer.getType()) && element.getIntOrFloatBitWidth() == 8;
    if (!isa<StatsType, ScalarType, PartialsType, GroupsType>(buffer.getType()))
      problem.widestBits =
          std::max(problem.widestBits, element.getIntOrFloatBitWidth());
  }
  return problem;
}

normc::ScheduleProblem normc::sched::getScheduleProblem(KernelOp kernel) {
  ScheduleProblem problem = getBufferProblem(kernel);
  problem.reproducible = kernel.getReproducible();
  for (Operation &op : kernel.getBody().front()) {
    if (isa<LoadRowOp, MapOp>(op) && needsStorage(op.getResult(0)))
      problem.keptBits +=
          getElementType(op.getResult(0).getType()).getIntOrFloatBitWidth();
    else if (auto sum = dyn_cast<ReduceRowsOp>(op))
      problem.sumBits +=
          sum.getPartials().getType().getElementType().getIntOrFloatBitWidth();
  }
  return problem;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// Which element types a sched type holds: those the element-type table
/// gives any of these roles.
enum Elements : unsigned {
  // What a per-feature buffer stores.
  Storage = ElementType::Storage,
  // What a [rows, d] buffer stores.
  Rows = ElementType::Storage | ElementType::Quantized,
  // What arithmetic and statistics use.
  Accumulate = ElementType::Accumulate,
  // A row value or a chunk of it.
  RowValues = ElementType::Accumulate | ElementType::Quantized,
};

static LogicalResult verifyElement(function_ref<InFlightDiagnostic()> emitError,
                                   Type element, Elements roles) {
  if (hasElementRole(element, roles))
    return success();
  return emitError() << "element type must be "
                     << elementTypesWithRole(roles, &ElementType::mlirName)
                     << ", got " << element;
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
          << ", row_storage = " << normc::toString(s.rowStorage) << ">";
}

LogicalResult ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   normc::Schedule schedule) {
  std::string why = normc::checkSchedule(schedule);
  if (!why.empty())
    return emitError() << "invalid schedule: " << why;
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

LogicalResult normc::sched::verifyKernelHeader(KernelInterface kernel,
                                               StringRef symbol,
                                               int64_t launchOrder) {
  Operation *op = kernel;
  std::string why = normc::checkEmittedName(symbol, normc::EmittedName::Kernel);
  if (!why.empty())
    return op->emitOpError("symbol '") << symbol << "' " << why;
  std::optional<uint64_t> d = kernel.getKernelD();
  if (d && (*d < 1 || *d > uint64_t(normc::kMaxD)))
    return op->emitOpError("d must be in [1, ")
           << normc::kMaxD << "], got " << *d;
  if (launchOrder < 0)
    return op->emitOpError("launch_order must be non-negative, got ")
           << launchOrder;
  if (auto module = dyn_cast_or_null<ModuleOp>(op->getParentOp()))
    for (Operation &other : module.getOps())
      if (&other != op && isa<KernelInterface>(other))
        if (auto order = other.getAttrOfType<IntegerAttr>("launch_order");
            order && order.getInt() == launchOrder)
          return op->emitOpError("has the launch_order ")
                 << launchOrder << " of @"
                 << SymbolTable::getSymbolName(&other).getValue()
                 << "; the kernels of a module run one after another";
  llvm::StringSet<> names;
  for (auto buffer : op->getRegion(0).getOps<BufferOp>())
    if (!names.insert(buffer.getName()).second)
      return buffer.emitOpError()
             << "duplicate buffer '" << buffer.getName() << "'";
  return success();
}

LogicalResult KernelOp::verify() {
  if (failed(verifyKernelHeader(*this, getSymName(), getLaunchOrder())))
    return failure();
  if (ScheduleAttr schedule = getScheduleAttr()) {
    normc::ScheduleProblem problem = getScheduleProblem(*this);
    std::string why = normc::checkSchedule(schedule.getValue(), &problem);
    if (!why.empty())
      return emitOpError("invalid schedule: ") << why;
  }
  return success();
}

LogicalResult normc::sched::verifyScalarOp(Operation *op, Type accumulate) {
  for (Type t : op->getResultTypes()) {
    // Only a rounding makes a quantized type (to store it); only a comparison,
    // i1.
    bool quantized = hasElementRole(t, ElementType::Quantized) &&
                     isa<arith::TruncFOp, arith::FPToSIOp>(op);
    bool flag = t.isInteger(1) && isa<arith::CmpFOp>(op);
    if (!hasElementRole(t, ElementType::Accumulate) && !t.isInteger(32) &&
        !quantized && !flag)
      return op->emitOpError("result type ")
             << t << " cannot be emitted; expected "
             << elementTypesWithRole(ElementType::Accumulate,
                                     &ElementType::mlirName)
             << " (an accumulate type) or i32";
  }
  if (!getScalarForm(op))
    return op->emitOpError("cannot be emitted as CUDA");
  if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
          arith::MinimumFOp, arith::MaximumFOp, arith::SelectOp, math::SqrtOp,
          math::RsqrtOp, math::ExpOp, math::RoundEvenOp, math::AbsFOp,
          arith::SIToFPOp>(op) &&
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

LogicalResult normc::sched::verifyGroupSize(Operation *op, int64_t group) {
  if (group < 16 || group > 1024 || (group & (group - 1)))
    return op->emitOpError("group must be a power of two in [16, 1024], got ")
           << group;
  return success();
}

std::optional<int64_t> normc::sched::getGroupSize(Operation *op) {
  if (auto grouped = dyn_cast<GroupedOpInterface>(op))
    return static_cast<int64_t>(grouped.getGroupSize());
  return std::nullopt;
}

LogicalResult normc::sched::verifyKernelBody(KernelInterface kernel) {
  Operation *op = kernel;
  Type acc = kernel.getKernelAccumulate();
  std::optional<int64_t> kernelGroup;
  WalkResult walk = op->getRegion(0).walk([&](Operation *inner) -> WalkResult {
    StringRef dialect = inner->getName().getDialectNamespace();
    if (dialect == "arith" || dialect == "math")
      return failed(verifyScalarOp(inner, acc)) ? WalkResult::interrupt()
                                                : WalkResult::advance();
    if (dialect != "sched" && dialect != "kern")
      return inner->emitOpError("cannot be emitted as CUDA");
    // One kernel has one group size: its launch facts hold one.
    if (std::optional<int64_t> group = getGroupSize(inner)) {
      if (failed(verifyGroupSize(inner, *group)))
        return WalkResult::interrupt();
      if (kernelGroup && *kernelGroup != *group)
        return inner->emitOpError("uses groups of ")
               << *group << " features, but the kernel's are " << *kernelGroup;
      kernelGroup = group;
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // A [rows, groups] buffer is sized by the kernel's group size.
  if (!kernelGroup)
    for (auto buffer : op->getRegion(0).getOps<BufferOp>())
      if (isa<GroupsType>(buffer.getType()))
        return buffer.emitOpError("is a [rows, groups] buffer, but no op of "
                                  "the kernel gives a group size");
  return success();
}

LogicalResult KernelOp::verifyRegions() { return verifyKernelBody(*this); }

LogicalResult BufferOp::verify() {
  if (!isa<KernelInterface>((*this)->getParentOp()))
    return emitOpError("must be directly in a kernel");
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
LogicalResult normc::sched::verifyBody(Operation *op, Region &body,
                                       TypeRange inputs, Type yielded) {
  Block &block = body.front();
  if (block.getNumArguments() != inputs.size())
    return op->emitOpError("body takes ")
           << block.getNumArguments() << " arguments for " << inputs.size()
           << " operands";
  for (auto [arg, input] : llvm::zip(block.getArguments(), inputs))
    if (arg.getType() != getElementType(input))
      return op->emitOpError("body argument of type ")
             << arg.getType() << " for an operand of " << input;
  // Each dialect's bodies end with its own yield.
  std::string yieldName =
      (op->getName().getDialectNamespace() + ".yield").str();
  Operation *yield = block.empty() ? nullptr : &block.back();
  if (!yield || yield->getName().getStringRef() != yieldName ||
      yield->getNumOperands() != 1)
    return op->emitOpError("body must end with ") << yieldName;
  if (yield->getOperand(0).getType() != yielded)
    return op->emitOpError("body yields ")
           << yield->getOperand(0).getType() << ", expected " << yielded;
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

Type normc::sched::getKernelAccumulate(Operation *op) {
  return op->getParentOfType<KernelInterface>().getKernelAccumulate();
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
  // The sums over rows may run in another accumulate type than the row's
  // arithmetic (a spec's accumulate_rows): the partials'.
  return verifyBody(*this, getBody(), getInputs().getTypes(),
                    getPartials().getType().getElementType());
}

void ReduceRowsOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  readFeatureOperands(getInputsMutable(), effects);
  effects.emplace_back(MemoryEffects::Write::get(), &getPartialsMutable());
}

LogicalResult ReduceOp::verify() {
  if (getType() != getKernelAccumulate(*this))
    return emitOpError("sums in ")
           << getType() << ", but the kernel accumulates in "
           << getKernelAccumulate(*this);
  return verifyBody(*this, getBody(), getInputs().getTypes(), getType());
}

void ReduceOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  readFeatureOperands(getInputsMutable(), effects);
}

LogicalResult normc::sched::verifySameElement(Operation *op, Type value,
                                              Type dest) {
  if (getElementType(value) != getElementType(dest))
    return op->emitOpError("value of ")
           << getElementType(value) << " cannot be stored into "
           << getElementType(dest);
  return success();
}

LogicalResult GroupMaxOp::verify() {
  return verifyBody(*this, getBody(), getInputs().getTypes(),
                    getKernelAccumulate(*this));
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

LogicalResult LoadStatOp::verify() {
  if (getType() != getSource().getType().getElementType())
    return emitOpError("reads ") << getSource().getType().getElementType()
                                 << " stats as " << getType();
  if (!(*this)->getParentOp()->hasTrait<RowScope>())
    return emitOpError("reads the current row: it belongs in the kernel's "
                       "body or its kern.for_row_groups");
  return success();
}

LogicalResult StoreStatOp::verify() {
  if (getValue().getType() != getDest().getType().getElementType())
    return emitOpError("value of type ")
           << getValue().getType() << " cannot be stored into stats of "
           << getDest().getType().getElementType();
  return success();
}

LogicalResult normc::sched::verifyAccumulateType(Operation *op, Type t) {
  if (t != getKernelAccumulate(op))
    return op->emitOpError("sums in ")
           << t << ", but the kernel accumulates in "
           << getKernelAccumulate(op);
  return success();
}

LogicalResult ReduceStatRowsOp::verify() {
  // As sched.reduce_rows, the sum may run in a wider type than the row's.
  if (getValue().getType() != getPartials().getType().getElementType())
    return emitOpError("adds ")
           << getValue().getType() << " values into partials of "
           << getPartials().getType().getElementType();
  return success();
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

#include "normc/Dialect/Sched/IR/SchedInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "normc/Dialect/Sched/IR/SchedOps.cpp.inc"
