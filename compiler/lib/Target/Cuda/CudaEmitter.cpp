//===- CudaEmitter.cpp - Print kern IR as CUDA C++ ------------------------===//
//
// One print function per op, as in MLIR's TranslateToCpp: every decision
// (loops, where rows live, reductions, barriers, shared-memory layout) is
// already in the IR (convert-sched-to-kern); the emitter only spells it. Local
// names are c/s/v/a followed by a counter, which the verifiers keep buffer
// names from colliding with.
//
//===----------------------------------------------------------------------===//
#include "normc/Target/Cuda/CudaEmitter.h"
#include "CudaSupport.h"
#include "normc/Abi/ElementType.h"
#include "normc/Dialect/ElementTypes.h"
#include "normc/Dialect/Kern/IR/LaunchInfo.h"
#include "normc/Dialect/Sched/IR/ScalarOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Support/IndentedOstream.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace normc;
using namespace normc::kern;
using namespace normc::sched;

static std::string typeName(Type t) {
  if (t.isInteger(32))
    return "int";
  if (t.isInteger(1))
    return "bool";
  // Storage and accumulate types: the CUDA type the element table names.
  std::optional<ElementType> element = elementTypeNamed(getElementTypeName(t));
  assert(element && "the verifier admits no other type");
  return std::string(element->cudaName);
}

static int64_t byteWidth(Type t) { return t.getIntOrFloatBitWidth() / 8; }

//===----------------------------------------------------------------------===//
// Kernel emission
//===----------------------------------------------------------------------===//

namespace {

class KernelEmitter {
public:
  KernelEmitter(kern::KernelOp kernel, const KernelLaunchInfo &info,
                raw_indented_ostream &os)
      : kernel(kernel), schedule(kernel.getSchedule().getValue()), info(info),
        os(os), acc(kernel.getAccumulate()), width(schedule.vectorWidth) {}

  LogicalResult emit();

private:
  std::string fresh(char prefix) { return prefix + std::to_string(counter++); }
  /// The statement that combines `term` into `into`.
  static std::string combined(Combine combine, const std::string &into,
                              const std::string &term) {
    if (combine == Combine::max)
      return into + " = normc_max(" + into + ", " + term + ");\n";
    return into + " += " + term + ";\n";
  }
  std::string cvt(Type to, StringRef value) {
    return ("NORMC_CVT(" + typeName(to) + ", " + value + ")").str();
  }
  std::string literal(Type t, double v);
  std::string bufferName(Value buffer) {
    return buffer.getDefiningOp<BufferOp>().getName().str();
  }
  std::string vecFlag(Value buffer) { return bufferName(buffer) + "_vec"; }
  /// The C type of a kernel parameter: "const __nv_bfloat16 *", "int", ...
  std::string paramType(const KernelParam &p);
  /// The element size of a buffer parameter.
  int64_t elementBytes(const KernelParam &p) {
    return byteWidth(getElementType(bufferOf(p).getType()));
  }
  BufferOp bufferOf(const KernelParam &p) {
    for (auto buffer : kernel.getBody().getOps<BufferOp>())
      if (buffer.getName() == p.name)
        return buffer;
    llvm_unreachable("a buffer parameter without its sched.buffer");
  }

  void emitSignature();
  void emitPrologue();
  void emitCpuEntry();
  LogicalResult emitBlock(Block &block);
  LogicalResult emitOp(Operation &op);
  /// Prints the scalar body of a map or accumulate inside the loop over a
  /// chunk's elements `e`; returns the name of the yielded value.
  FailureOr<std::string> emitElementBody(Region &body, ValueRange chunks);
  void declareChunk(Type element, const std::string &name) {
    os << "alignas(16) " << typeName(element) << " " << name << "[" << width
       << "];\n";
  }
  void openElementLoop() {
    os << "#pragma unroll\n";
    os << "for (int e = 0; e < " << width << "; ++e) {\n";
    os.indent();
  }
  void close() {
    os.unindent();
    os << "}\n";
  }

  // One print function per op.
  void print(SharedRowsOp op);
  void print(SharedScratchOp op);
  void print(SharedGroupsOp op);
  /// A table of dynamic shared memory, region `index`, a row of `pitch`
  /// elements for each row of the block.
  void declareTable(Value table, int64_t index, StringRef pitch);
  LogicalResult print(ForRowGroupsOp op);
  LogicalResult print(ForChunksOp op);
  void print(AllocRowOp op);
  void print(LoadChunkOp op);
  void print(ReadKeptOp op);
  void print(KeepOp op);
  void print(AsyncKeepOp op);
  LogicalResult print(MapChunkOp op);
  void print(StoreChunkOp op);
  void print(AccumulatorOp op);
  LogicalResult print(AccumulateOp op);
  void print(ReadAccumulatorOp op);
  void print(WarpSumOp op);
  void print(ScratchWriteOp op);
  void print(ScratchSumOp op);
  void print(LoadStatOp op);
  void print(LoadScalarOp op);
  void print(StoreStatOp op);
  void print(ClearGroupOp op);
  LogicalResult print(AccumulateGroupMaxOp op);
  void print(ReadGroupOp op);
  void print(StoreGroupOp op);
  LogicalResult print(AccumulateRowOp op);
  void print(StorePartialsOp op);
  LogicalResult print(ForFeaturesOp op);
  void print(SumColumnOp op);
  void print(StoreFeatureOp op);
  void print(ClearPartialOp op);
  void print(AddPartialOp op);
  void print(SharedClusterSlotOp op);
  void print(ClusterWriteOp op);
  void print(ClusterSumOp op);
  void print(SharedTilesOp op);
  LogicalResult print(TreeTileOp op);
  void print(TreeTotalOp op);
  LogicalResult printScalar(Operation &op);
  /// The row's features this block handles: d, or the cluster slice's end.
  std::string sliceEnd() const { return clustered() ? "slice_end" : "d"; }
  /// This chunk's element e of a kept row: `v[i][e]` or `v[c + e]`.
  std::string keptElement(Value kept) {
    return names[kept] + (kept.getDefiningOp<AllocRowOp>()
                              ? "[i][e]"
                              : "[" + sliceIndex() + " + e]");
  }
  /// The alignment a chunk's vector access of `elementBytes`-byte elements
  /// needs: its size, at most 16 (wider chunks are several 16-byte ones).
  int64_t accessAlignment(int64_t elementBytes) const {
    return std::min<int64_t>(16, width * elementBytes);
  }
  bool clustered() const {
    return schedule.strategy == normc::Strategy::Cluster;
  }
  /// Feature c's place in the block's part of a row: its cluster slice.
  std::string sliceIndex() const {
    return clustered() ? "(c - slice_begin)" : "c";
  }

  kern::KernelOp kernel;
  Schedule schedule;
  const KernelLaunchInfo &info;
  raw_indented_ostream &os;
  Type acc;
  int64_t width;

  unsigned counter = 0;
  /// Value -> C expression: scalars, chunks (indexable by [e]), storage.
  llvm::DenseMap<Value, std::string> names;
  /// Accumulator -> the name of its compensation term.
  llvm::DenseMap<Value, std::string> carries;
};

} // namespace

std::string KernelEmitter::literal(Type t, double v) {
  if (t.isInteger(32))
    return std::to_string(static_cast<int64_t>(v));
  std::string digits = llvm::formatv(t.isF64() ? "{0:e16}" : "{0:e8}", v).str();
  if (t.isF64())
    return digits;
  if (t.isF32())
    return digits + "f";
  return cvt(t, digits + "f");
}

std::string KernelEmitter::paramType(const KernelParam &p) {
  switch (p.kind) {
  case KernelParam::Kind::RowStride:
  case KernelParam::Kind::RowCount:
    return "long long";
  case KernelParam::Kind::D:
    return "int";
  default:
    return (p.written ? "" : "const ") +
           typeName(getElementType(bufferOf(p).getType())) + " *";
  }
}

void KernelEmitter::emitSignature() {
  if (clustered())
    os << "NORMC_CLUSTER_KERNEL(" << info.blockSize << ", "
       << schedule.clusterSize << ", " << info.name << ")(";
  else
    os << "NORMC_KERNEL(" << info.blockSize << ", " << info.name << ")(";
  llvm::interleave(
      info.params, os,
      [&](const KernelParam &p) {
        // A kernel for a fixed d leaves the argument unnamed: its d is the
        // constant of the prologue.
        bool unnamed = p.kind == KernelParam::Kind::D && kernel.getD();
        os << paramType(p) << (p.isBuffer() || unnamed ? "" : " ")
           << (unnamed ? "" : p.name);
      },
      ", ");
  os << ") {\n";
}

void KernelEmitter::emitPrologue() {
  os.indent();
  if (auto d = kernel.getD())
    os << "const int d = " << *d << "; // fixed at compile time\n";
  os << "const int lane_in_row = threadIdx.x % " << schedule.threadsPerRow
     << ";\n";
  os << "const int row_in_block = threadIdx.x / " << schedule.threadsPerRow
     << ";\n";
  if (clustered()) {
    int64_t slice = featuresPerBlock(schedule, *kernel.getD());
    os << "// Block r of the cluster handles features [r * " << slice
       << ", (r + 1) * " << slice << ") of the row.\n";
    os << "const int slice_begin = normc_cluster_rank() * " << slice << ";\n";
    os << "const int slice_end = min(d, slice_begin + " << slice << ");\n";
  }
  for (const KernelParam &p : info.params)
    if (p.kind == KernelParam::Kind::Partials && p.written)
      os << paramType(p) << p.name << "_row = " << p.name
         << " + ((long long)blockIdx.x * " << schedule.rowsPerBlock
         << " + row_in_block) * d; // this row group's sums\n";
  if (info.groupSize)
    os << "const int groups = (d + " << info.groupSize - 1 << ") / "
       << info.groupSize << "; // groups of " << info.groupSize
       << " features a row\n";
  for (auto buffer : kernel.getBody().getOps<BufferOp>())
    if (isa<FeaturesType>(buffer.getType()))
      os << "const bool " << vecFlag(buffer) << " = normc_aligned("
         << buffer.getName() << ", "
         << accessAlignment(byteWidth(getElementType(buffer.getType())))
         << ");\n";
}

/// Where region `index` of the layout starts, as C: 0, or the end of the
/// region before it (whose row length the emitter has named pitch, or
/// groups for a region per group).
static std::string regionOffset(const SharedLayout &layout, size_t index) {
  if (index == 0)
    return "0";
  const SharedRegion &before = layout.regions[index - 1];
  return llvm::formatv("region_{0} + ({1} * {2} + 15) / 16 * 16", index - 1,
                       before.rows * before.elementBytes,
                       before.group ? "groups" : "pitch");
}

void KernelEmitter::print(SharedRowsOp op) {
  const SharedLayout &layout = info.shared;
  int64_t first = *op.getRegion();
  os << "NORMC_DYNAMIC_SHARED(shared_rows);\n";
  // The slots' regions share one row length.
  const SharedRegion &region = layout.regions[first];
  if (region.features)
    os << "const int pitch = " << region.features << "; // the slice\n";
  else
    os << "const int pitch = (d + " << region.vectorWidth - 1 << ") / "
       << region.vectorWidth << " * " << region.vectorWidth << ";\n";
  for (auto [slot, value] : llvm::enumerate(op.getResults())) {
    size_t index = first + slot;
    Type element = getElementType(value.getType());
    std::string name = fresh('v');
    os << "const int region_" << index << " = " << regionOffset(layout, index)
       << ";\n";
    os << typeName(element) << " *" << name << " = reinterpret_cast<"
       << typeName(element) << " *>(shared_rows + region_" << index
       << ") + row_in_block * pitch;\n";
    names[value] = name;
  }
}

void KernelEmitter::declareTable(Value table, int64_t index, StringRef pitch) {
  if (index == 0)
    os << "NORMC_DYNAMIC_SHARED(shared_rows);\n";
  std::string type = typeName(getElementType(table.getType()));
  std::string name = fresh('v');
  os << "const int region_" << index << " = "
     << regionOffset(info.shared, index) << ";\n";
  os << type << " *" << name << " = reinterpret_cast<" << type
     << " *>(shared_rows + region_" << index << ") + row_in_block * " << pitch
     << ";\n";
  names[table] = name;
}

void KernelEmitter::print(SharedGroupsOp op) {
  os << "// A slot per group of this row, after the kept rows.\n";
  declareTable(op, *op.getRegion(), "groups");
}

void KernelEmitter::print(SharedTilesOp op) {
  os << "// The sums of this row's tiles of " << op.getTile()
     << " features, the last region.\n";
  os << "const int tiles = (d + " << op.getTile() - 1 << ") / " << op.getTile()
     << ";\n";
  declareTable(op, *op.getRegion(), "tiles");
}

LogicalResult KernelEmitter::print(TreeTileOp op) {
  Type element = getElementType(op.getDest().getType());
  std::string t = fresh('c'), sum = fresh('s');
  std::string lanes = std::to_string(op.getLanes());
  std::string vector = std::to_string(width);
  os << "// A tile of " << op.getLanes()
     << " lanes' chunks, in a fixed tree.\n";
  declareChunk(element, t);
  openElementLoop();
  os << t << "[e] = " << literal(element, -0.0) << ";\n";
  os << "if (c + e < " << names[op.getCount()] << ") {\n";
  os.indent();
  FailureOr<std::string> term = emitElementBody(op.getBody(), op.getInputs());
  if (failed(term))
    return failure();
  os << t << "[e] = " << *term << ";\n";
  close();
  close();
  if (op.getOrder() == TileOrder::vector_then_lanes) {
    os << "normc_tree_vector<" << vector << ">(" << t << ");\n";
    os << "const " << typeName(element) << " " << sum << " = normc_tree_lanes<"
       << lanes << ">(" << t << "[0]);\n";
  } else {
    os << "#pragma unroll\n";
    os << "for (int e = 0; e < " << width << "; ++e)\n";
    os << "  " << t << "[e] = normc_tree_lanes<" << lanes << ">(" << t
       << "[e]);\n";
    os << "normc_tree_vector<" << vector << ">(" << t << ");\n";
    os << "const " << typeName(element) << " " << sum << " = " << t << "[0];\n";
  }
  Value dest = op.getDest();
  if (auto tiles = dest.getDefiningOp<SharedTilesOp>()) {
    // Tiles past the row's end are -0.0, as kern.tree_total reads them.
    os << "if ((lane_in_row & 31) == 0 && c < " << sliceEnd() << ")\n";
    os << "  " << names[dest] << "[" << sliceIndex() << " / " << tiles.getTile()
       << "] = " << sum << ";\n";
  } else {
    os << names[dest] << ".push(" << sum << ");\n";
  }
  return success();
}

void KernelEmitter::print(TreeTotalOp op) {
  auto tiles = op.getTiles().getDefiningOp<SharedTilesOp>();
  std::string table = names[op.getTiles()], name = fresh('s');
  std::string type = typeName(op.getType());
  int64_t tile = tiles.getTile();
  os << type << " " << name << ";\n";
  os << "{\n";
  os.indent();
  os << "// Every warp adds the row's tiles: runs a lane, then the lanes.\n";
  os << "const int n = (" << sliceEnd() << " - "
     << (clustered() ? "slice_begin" : "0") << " + " << tile - 1 << ") / "
     << tile << ";\n";
  os << "const int per_lane = normc_tiles_per_lane(n);\n";
  os << "normc_pairwise<" << type << ", " << op.getDepth() << "> runs;\n";
  os << "for (int k = 0; k < per_lane; ++k) {\n";
  os << "  const int t = (lane_in_row & 31) * per_lane + k;\n";
  os << "  runs.push(t < n ? " << table
     << "[t] : " << literal(op.getType(), -0.0) << ");\n";
  os << "}\n";
  os << name << " = normc_tree_lanes<32>(runs.total());\n";
  close();
  names[op] = name;
}

void KernelEmitter::print(SharedScratchOp op) {
  os << "NORMC_STATIC_SHARED(" << typeName(acc) << ", reduce_scratch, "
     << schedule.rowsPerBlock * op.getWarps() << ");\n";
  names[op] = "reduce_scratch";
}

LogicalResult KernelEmitter::print(ForRowGroupsOp op) {
  if (clustered()) {
    int64_t blocks = schedule.clusterSize;
    os << "// The blocks of a cluster go through the same rows together.\n";
    os << "for (long long row_group = (long long)blockIdx.x / " << blocks
       << "; row_group < rows;\n"
       << "     row_group += (long long)gridDim.x / " << blocks << ") {\n";
  } else {
    os << "for (long long row_group = (long long)blockIdx.x * "
       << schedule.rowsPerBlock << "; row_group < rows;\n"
       << "     row_group += (long long)gridDim.x * " << schedule.rowsPerBlock
       << ") {\n";
  }
  os.indent();
  os << "const long long row = row_group + row_in_block;\n";
  os << "// Threads of a row past the end load zeros and store nothing, but "
        "still\n// take part in the block's barriers.\n";
  os << "const int limit = row < rows ? d : 0;\n";
  for (const KernelParam &p : info.params) {
    if (p.kind != KernelParam::Kind::Rows)
      continue;
    os << paramType(p) << p.name << "_row = " << p.name
       << " + (row < rows ? row : 0) * " << p.name << "_stride;\n";
    os << "const bool " << p.name << "_vec = normc_aligned(" << p.name
       << "_row, " << accessAlignment(elementBytes(p)) << ");\n";
  }
  if (failed(emitBlock(op.getBody().front())))
    return failure();
  close();
  return success();
}

LogicalResult KernelEmitter::print(ForChunksOp op) {
  if (auto unrolled = op.getUnrolled()) {
    os << "#pragma unroll\n";
    os << "for (int i = 0; i < " << *unrolled << "; ++i) {\n";
    os.indent();
    os << "const int c = " << (clustered() ? "slice_begin + " : "") << "(i * "
       << schedule.threadsPerRow << " + lane_in_row) * " << width << ";\n";
  } else if (op.getUniform()) {
    // Every thread of the row runs as many chunks, for the shuffles in it.
    int64_t pass = schedule.threadsPerRow * width;
    os << "for (int c0 = " << (clustered() ? "slice_begin" : "0") << "; c0 < "
       << sliceEnd() << "; c0 += " << pass << ") {\n";
    os.indent();
    os << "const int c = c0 + lane_in_row * " << width << ";\n";
  } else if (clustered()) {
    os << "for (int c = slice_begin + lane_in_row * " << width
       << "; c < slice_end; c += " << schedule.threadsPerRow * width << ") {\n";
    os.indent();
  } else {
    os << "for (int c = lane_in_row * " << width
       << "; c < d; c += " << schedule.threadsPerRow * width << ") {\n";
    os.indent();
  }
  if (failed(emitBlock(op.getBody().front())))
    return failure();
  close();
  return success();
}

void KernelEmitter::print(AllocRowOp op) {
  std::string name = fresh('v');
  os << "alignas(16) " << typeName(getElementType(op.getType())) << " " << name
     << "[" << op.getVectors() << "][" << width << "];\n";
  names[op] = name;
}

void KernelEmitter::print(LoadChunkOp op) {
  std::string name = fresh('c');
  declareChunk(getElementType(op.getType()), name);
  Value source = op.getSource();
  bool row = isa<RowsType>(source.getType());
  os << "normc_load<" << width << ">(" << name << ", " << bufferName(source)
     << (row ? "_row" : "") << ", c, " << (row ? "limit" : "d") << ", "
     << vecFlag(source) << ");\n";
  names[op] = name;
}

void KernelEmitter::print(ReadKeptOp op) {
  std::string storage = names[op.getSource()];
  // A uniform pass may reach past the row: such a chunk reads the row's last
  // one, and its terms are never used.
  bool uniform = op->getParentOfType<ForChunksOp>().getUniform();
  names[op] = op.getSource().getDefiningOp<AllocRowOp>()
                  ? storage + "[i]"
                  : "(" + storage + " + " +
                        (uniform ? "min(" + sliceIndex() + ", pitch - " +
                                       std::to_string(width) + ")"
                                 : sliceIndex()) +
                        ")";
}

void KernelEmitter::print(KeepOp op) {
  os << "#pragma unroll\n";
  os << "for (int e = 0; e < " << width << "; ++e)\n";
  os << "  " << keptElement(op.getDest()) << " = " << names[op.getValue()]
     << "[e];\n";
}

void KernelEmitter::print(AsyncKeepOp op) {
  Value source = op.getSource();
  os << "normc_async_load<" << width << ">(" << names[op.getDest()] << " + "
     << sliceIndex() << ", " << bufferName(source) << "_row, c, limit, "
     << vecFlag(source) << ");\n";
}

FailureOr<std::string> KernelEmitter::emitElementBody(Region &body,
                                                      ValueRange chunks) {
  for (auto [arg, chunk] : llvm::zip(body.getArguments(), chunks))
    names[arg] = names[chunk] + "[e]";
  for (Operation &inner : body.front().without_terminator())
    if (failed(printScalar(inner)))
      return failure();
  return names[cast<kern::YieldOp>(body.front().getTerminator()).getValue()];
}

LogicalResult KernelEmitter::print(MapChunkOp op) {
  std::string name = fresh('c');
  declareChunk(getElementType(op.getType()), name);
  openElementLoop();
  FailureOr<std::string> value = emitElementBody(op.getBody(), op.getInputs());
  if (failed(value))
    return failure();
  if (Value count = op.getCount())
    os << name << "[e] = c + e < " << names[count] << " ? " << *value << " : "
       << literal(getElementType(op.getType()), 0.0) << ";\n";
  else
    os << name << "[e] = " << *value << ";\n";
  close();
  names[op] = name;
  return success();
}

void KernelEmitter::print(StoreChunkOp op) {
  Value dest = op.getDest();
  os << "normc_store<" << width << ">(" << bufferName(dest) << "_row, "
     << names[op.getValue()] << ", c, limit, " << vecFlag(dest) << ");\n";
}

void KernelEmitter::print(AccumulatorOp op) {
  std::string name = fresh('a');
  Type element = getElementType(op.getType());
  if (std::optional<int64_t> levels = op.getPairwise()) {
    os << "normc_pairwise<" << typeName(element) << ", " << *levels << "> "
       << name << "; // the chunks' tiles, pairwise\n";
    names[op] = name;
    return;
  }
  os << typeName(element) << " " << name << " = " << literal(element, 0.0)
     << ";\n";
  if (op.getCompensated()) {
    carries[op] = name + "_carry";
    os << typeName(element) << " " << carries[op] << " = "
       << literal(element, 0.0) << "; // rounding errors of " << name << "\n";
  }
  names[op] = name;
}

LogicalResult KernelEmitter::print(AccumulateOp op) {
  openElementLoop();
  os << "if (c + e < " << names[op.getCount()] << ") {\n";
  os.indent();
  FailureOr<std::string> term = emitElementBody(op.getBody(), op.getInputs());
  if (failed(term))
    return failure();
  std::string sum = names[op.getAcc()];
  auto carry = carries.find(op.getAcc());
  if (carry != carries.end())
    os << "normc_add_compensated(" << sum << ", " << carry->second << ", "
       << *term << ");\n";
  else
    os << combined(op.getAcc().getDefiningOp<AccumulatorOp>().getCombine(), sum,
                   *term);
  close();
  close();
  return success();
}

void KernelEmitter::print(ReadAccumulatorOp op) {
  std::string name = fresh('s');
  std::string sum = names[op.getAcc()];
  auto carry = carries.find(op.getAcc());
  bool pairwise =
      bool(op.getAcc().getDefiningOp<AccumulatorOp>().getPairwise());
  os << "const " << typeName(op.getType()) << " " << name << " = "
     << (carry != carries.end()
             ? "normc_compensated_total(" + sum + ", " + carry->second + ")"
         : pairwise ? sum + ".total()"
                    : sum)
     << ";\n";
  names[op] = name;
}

void KernelEmitter::print(WarpSumOp op) {
  std::string name = fresh('s');
  os << typeName(op.getType()) << " " << name << " = " << names[op.getValue()]
     << ";\n";
  for (int64_t offset = op.getLanes() / 2; offset > 0; offset /= 2)
    os << combined(op.getCombine(), name,
                   "__shfl_xor_sync(0xffffffffu, " + name + ", " +
                       std::to_string(offset) + ")");
  names[op] = name;
}

void KernelEmitter::print(ScratchWriteOp op) {
  int64_t warps = op.getScratch().getDefiningOp<SharedScratchOp>().getWarps();
  os << "// Across the " << warps << " warps of the row.\n";
  os << "if ((lane_in_row & 31) == 0)\n";
  os << "  " << names[op.getScratch()] << "[row_in_block * " << warps
     << " + (lane_in_row >> 5)] = " << names[op.getValue()] << ";\n";
}

void KernelEmitter::print(ScratchSumOp op) {
  int64_t warps = op.getScratch().getDefiningOp<SharedScratchOp>().getWarps();
  std::string scratch = names[op.getScratch()], name = fresh('s');
  std::string slot = "row_in_block * " + std::to_string(warps);
  os << typeName(op.getType()) << " " << name << " = " << scratch << "[" << slot
     << "];\n";
  os << "#pragma unroll\n";
  os << "for (int w = 1; w < " << warps << "; ++w)\n";
  os << "  " << combined(op.getCombine(), name, scratch + "[" + slot + " + w]");
  names[op] = name;
}

void KernelEmitter::print(SharedClusterSlotOp op) {
  os << "NORMC_STATIC_SHARED(" << typeName(acc) << ", cluster_slot, 1);\n";
  names[op] = "cluster_slot";
}

void KernelEmitter::print(ClusterWriteOp op) {
  os << "// Across the " << schedule.clusterSize << " blocks of the cluster.\n";
  os << "if (threadIdx.x == 0)\n";
  os << "  " << names[op.getSlot()] << "[0] = " << names[op.getValue()]
     << ";\n";
}

void KernelEmitter::print(ClusterSumOp op) {
  std::string slot = names[op.getSlot()], name = fresh('s');
  if (op.getPairwise()) {
    int64_t blocks = schedule.clusterSize;
    os << typeName(op.getType()) << " " << name << "_ranks[" << blocks
       << "];\n";
    os << "#pragma unroll\n";
    os << "for (int r = 0; r < " << blocks << "; ++r)\n";
    os << "  " << name << "_ranks[r] = *normc_cluster_shared(" << slot
       << ", r);\n";
    os << "normc_tree_vector<" << blocks << ">(" << name << "_ranks);\n";
    os << "const " << typeName(op.getType()) << " " << name << " = " << name
       << "_ranks[0];\n";
    names[op] = name;
    return;
  }
  os << typeName(op.getType()) << " " << name << " = *normc_cluster_shared("
     << slot << ", 0);\n";
  os << "#pragma unroll\n";
  os << "for (int r = 1; r < " << schedule.clusterSize << "; ++r)\n";
  os << "  "
     << combined(op.getCombine(), name,
                 "*normc_cluster_shared(" + slot + ", r)");
  names[op] = name;
}

void KernelEmitter::print(LoadStatOp op) {
  std::string name = fresh('s');
  os << "const " << typeName(op.getType()) << " " << name << " = "
     << bufferName(op.getSource()) << "[row < rows ? row : 0];\n";
  names[op] = name;
}

void KernelEmitter::print(LoadScalarOp op) {
  std::string name = fresh('s');
  os << "const " << typeName(op.getType()) << " " << name << " = "
     << bufferName(op.getSource()) << "[0];\n";
  names[op] = name;
}

void KernelEmitter::print(StoreStatOp op) {
  os << "if (row < rows && lane_in_row == 0)\n";
  os << "  " << bufferName(op.getDest()) << "[row] = " << names[op.getValue()]
     << ";\n";
}

void KernelEmitter::print(ClearGroupOp op) {
  os << "if (c < d && c % " << info.groupSize << " == 0)\n";
  os << "  " << names[op.getTable()] << "[c / " << info.groupSize
     << "] = " << literal(getElementType(op.getTable().getType()), 0.0)
     << ";\n";
}

LogicalResult KernelEmitter::print(AccumulateGroupMaxOp op) {
  Type element = getElementType(op.getTable().getType());
  std::string largest = fresh('a');
  os << typeName(element) << " " << largest << " = " << literal(element, 0.0)
     << ";\n";
  openElementLoop();
  os << "if (c + e < d) {\n";
  os.indent();
  FailureOr<std::string> term = emitElementBody(op.getBody(), op.getInputs());
  if (failed(term))
    return failure();
  os << combined(Combine::max, largest, *term);
  close();
  close();
  os << "if (c < d)\n";
  os << "  normc_group_max(" << names[op.getTable()] << " + c / "
     << info.groupSize << ", " << largest << ");\n";
  return success();
}

void KernelEmitter::print(ReadGroupOp op) {
  Type element = getElementType(op.getType());
  std::string name = fresh('c');
  declareChunk(element, name);
  os << "#pragma unroll\n";
  os << "for (int e = 0; e < " << width << "; ++e)\n";
  os << "  " << name << "[e] = c < d ? " << names[op.getTable()] << "[c / "
     << info.groupSize << "] : " << literal(element, 0.0) << ";\n";
  names[op] = name;
}

void KernelEmitter::print(StoreGroupOp op) {
  os << "if (row < rows && c < d && c % " << info.groupSize << " == 0)\n";
  os << "  " << bufferName(op.getDest()) << "[row * groups + c / "
     << info.groupSize << "] = " << names[op.getValue()] << "[0];\n";
}

LogicalResult KernelEmitter::print(AccumulateRowOp op) {
  Value sums = op.getSums();
  bool partials = isa<PartialsType>(sums.getType());
  os << "if (row < rows) {\n";
  os.indent();
  openElementLoop();
  FailureOr<std::string> term = emitElementBody(op.getBody(), op.getInputs());
  if (failed(term))
    return failure();
  if (partials)
    os << "if (c + e < d)\n  " << bufferName(sums) << "_row[c + e]";
  else
    os << keptElement(sums);
  os << " += " << *term << ";\n";
  close();
  close();
  return success();
}

void KernelEmitter::print(StorePartialsOp op) {
  os << "#pragma unroll\n";
  os << "for (int e = 0; e < " << width << "; ++e)\n";
  os << "  if (c + e < d)\n";
  os << "    " << bufferName(op.getPartials())
     << "_row[c + e] = " << names[op.getValue()] << "[e];\n";
}

LogicalResult KernelEmitter::print(ForFeaturesOp op) {
  os << "for (int f = blockIdx.x * blockDim.x + threadIdx.x; f < d; f += "
        "gridDim.x * blockDim.x) {\n";
  os.indent();
  if (failed(emitBlock(op.getBody().front())))
    return failure();
  close();
  return success();
}

void KernelEmitter::print(SumColumnOp op) {
  std::string partials = bufferName(op.getPartials());
  std::string t = fresh('s');
  // A scalar's partials are column 0, which only feature 0's thread adds.
  std::string column = op.getFirst() ? "0" : "f";
  std::string rows = op.getFirst() ? "(f == 0 ? rows : 0)" : "rows";
  os << "// Every partial row (one per block of the kernel before), in "
        "order.\n";
  os << typeName(acc) << " " << t << " = " << literal(acc, 0.0) << ";\n";
  if (op.getCompensated()) {
    os << typeName(acc) << " " << t << "_carry = " << literal(acc, 0.0)
       << ";\n";
    os << "for (long long b = 0; b < " << rows << "; ++b)\n";
    os << "  normc_add_compensated(" << t << ", " << t << "_carry, " << partials
       << "[b * d + " << column << "]);\n";
    os << t << " = normc_compensated_total(" << t << ", " << t << "_carry);\n";
  } else {
    os << "for (long long b = 0; b < " << rows << "; ++b)\n";
    os << "  " << t << " += " << partials << "[b * d + " << column << "];\n";
  }
  names[op] = t;
}

void KernelEmitter::print(StoreFeatureOp op) {
  if (isa<ScalarType>(op.getDest().getType()))
    os << "if (f == 0)\n  " << bufferName(op.getDest()) << "[0] = ";
  else
    os << bufferName(op.getDest()) << "[f] = ";
  os << names[op.getValue()] << ";\n";
}

void KernelEmitter::print(ClearPartialOp op) {
  os << "if (lane_in_row == 0)\n";
  os << "  " << bufferName(op.getPartials())
     << "_row[0] = " << literal(getElementType(op.getPartials().getType()), 0.0)
     << ";\n";
}

void KernelEmitter::print(AddPartialOp op) {
  // A cluster's blocks all hold the row's value; its first block adds it.
  os << "if (row < rows && lane_in_row == 0"
     << (clustered() ? " && normc_cluster_rank() == 0" : "") << ")\n";
  os << "  " << bufferName(op.getPartials())
     << "_row[0] += " << names[op.getValue()] << ";\n";
}

LogicalResult KernelEmitter::printScalar(Operation &op) {
  auto operand = [&](unsigned i) { return names[op.getOperand(i)]; };
  std::string expr;
  if (std::optional<ScalarForm> form = getScalarForm(&op)) {
    switch (form->kind) {
    case ScalarForm::Kind::Constant: {
      Attribute value = cast<arith::ConstantOp>(op).getValue();
      if (auto f = dyn_cast<FloatAttr>(value))
        expr = literal(f.getType(), f.getValueAsDouble());
      else if (auto i = dyn_cast<IntegerAttr>(value))
        expr = std::to_string(i.getInt());
      break;
    }
    case ScalarForm::Kind::Infix:
      expr = operand(0) + " " + form->spelling.str() + " " + operand(1);
      break;
    case ScalarForm::Kind::Call: {
      std::string args;
      for (unsigned i = 0; i < op.getNumOperands(); ++i)
        args += (i ? ", " : "") + operand(i);
      expr = form->spelling.str() + "(" + args + ")";
      break;
    }
    case ScalarForm::Kind::Convert:
      expr = cvt(op.getResult(0).getType(), operand(0));
      break;
    case ScalarForm::Kind::Select:
      expr = operand(0) + " ? " + operand(1) + " : " + operand(2);
      break;
    }
  } else if (auto count = dyn_cast<FeatureCountOp>(op)) {
    double fraction = count.getFraction().convertToDouble();
    if (auto d = kernel.getD())
      expr = std::to_string(std::max<int64_t>(
          1, static_cast<int64_t>(std::floor(fraction * double(*d)))));
    else
      expr = llvm::formatv("max(1, (int)floor({0:e16} * (double)d))", fraction)
                 .str();
  }
  if (expr.empty())
    return op.emitOpError("cannot be emitted as CUDA");
  std::string name = fresh('s');
  os << "const " << typeName(op.getResult(0).getType()) << " " << name << " = "
     << expr << ";\n";
  names[op.getResult(0)] = name;
  return success();
}

LogicalResult KernelEmitter::emitOp(Operation &op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case<BufferOp, BarrierOp, ClusterBarrierOp, AsyncWaitOp>(
          [&](Operation *op) {
            if (isa<BarrierOp>(op))
              os << "__syncthreads();\n";
            if (isa<ClusterBarrierOp>(op))
              os << "normc_cluster_sync();\n";
            if (isa<AsyncWaitOp>(op))
              os << "normc_async_wait();\n";
            return success();
          })
      .Case<ForRowGroupsOp, ForChunksOp, ForFeaturesOp, MapChunkOp,
            AccumulateOp, AccumulateRowOp, AccumulateGroupMaxOp, TreeTileOp>(
          [&](auto op) { return print(op); })
      .Case<SharedRowsOp, SharedScratchOp, SharedGroupsOp, AllocRowOp,
            LoadChunkOp, ReadKeptOp, KeepOp, AsyncKeepOp, StoreChunkOp,
            AccumulatorOp, ReadAccumulatorOp, WarpSumOp, ScratchWriteOp,
            ScratchSumOp, LoadStatOp, LoadScalarOp, StoreStatOp,
            StorePartialsOp, SumColumnOp, StoreFeatureOp, ClearPartialOp,
            AddPartialOp, ClearGroupOp, ReadGroupOp, StoreGroupOp,
            SharedClusterSlotOp, ClusterWriteOp, ClusterSumOp, SharedTilesOp,
            TreeTotalOp>([&](auto op) {
        print(op);
        return success();
      })
      .Default([&](Operation *op) { return printScalar(*op); });
}

LogicalResult KernelEmitter::emitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(emitOp(op)))
      return failure();
  return success();
}

void KernelEmitter::emitCpuEntry() {
  // The CPU device calls kernels through this, with cuLaunchKernel-style
  // arguments: args[i] points at the value of parameter i.
  os << "#ifdef NORMC_CPU\n";
  os << "extern \"C\" void normc_cpu_entry_" << info.name
     << "(void **args) {\n";
  os << "  NORMC_CPU_KERNEL(" << info.name << ")(";
  unsigned index = 0;
  llvm::interleave(
      info.params, os,
      [&](const KernelParam &p) {
        os << "*reinterpret_cast<" << paramType(p) << " const *>(args["
           << index++ << "])";
      },
      ",\n      ");
  os << ");\n}\n#endif\n";
}

LogicalResult KernelEmitter::emit() {
  os << "// kernel " << info.name
     << ": d = " << (info.d ? std::to_string(*info.d) + " (fixed)" : "run-time")
     << ", accumulate " << getElementTypeName(acc) << ", launch order "
     << info.launchOrder << "\n";
  os << "//   schedule: " << schedule.str() << "\n";
  os << "//   launch: blockDim.x = " << info.blockSize
     << ", any gridDim.x (blocks stride over groups of "
     << schedule.rowsPerBlock << " rows), dynamic shared memory = ";
  const std::vector<SharedRegion> &regions = info.shared.regions;
  auto rowRegions = llvm::count_if(
      regions, [](const SharedRegion &r) { return r.group == 0; });
  if (regions.empty())
    os << "0";
  else
    os << rowRegions
       << " region(s) of rows_per_block * round_up(d, vector_width) elements"
       << (size_t(rowRegions) < regions.size()
               ? " and a table of rows_per_block * groups elements"
               : "");
  if (int64_t bytes = info.d ? info.dynamicSharedBytes(*info.d) : 0)
    os << ": " << bytes << " bytes";
  os << "\n";
  emitSignature();
  emitPrologue();
  if (failed(emitBlock(kernel.getBody().front())))
    return failure();
  close();
  os << "\n";
  emitCpuEntry();
  return success();
}

LogicalResult normc::emitCuda(ModuleOp module, llvm::raw_ostream &rawOs) {
  raw_indented_ostream os(rawOs);
  os << "// Generated by normc from the kernel-level IR (kern dialect).\n";
  os << "// To change it, edit the IR (normc compile --emit=lowered) and "
        "compile that.\n";
  FailureOr<std::vector<KernelLaunchInfo>> sequence = getLaunchSequence(module);
  if (failed(sequence))
    return failure();
  os << "// Launch sequence (one stream, in this order):";
  for (const KernelLaunchInfo &info : *sequence)
    os << " " << info.name;
  os << "\n";
  emitCudaSupport(os);
  for (const KernelLaunchInfo &info : *sequence) {
    os << "\n";
    auto kernel =
        cast<kern::KernelOp>(SymbolTable::lookupSymbolIn(module, info.name));
    if (failed(KernelEmitter(kernel, info, os).emit()))
      return failure();
  }
  return success();
}
