//===- CudaEmitter.cpp - Translate sched.kernel ops to CUDA C++ -----------===//
//
// Each op of a kernel body becomes a few lines of CUDA inside the loop over
// the block's row groups. Row values either live in the schedule's row
// storage (registers, shared memory, or their home buffer in global memory)
// or are recomputed chunk by chunk where they are used.
//
//===----------------------------------------------------------------------===//
#include "normc/Target/Cuda/CudaEmitter.h"
#include "CudaSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Support/IndentedOstream.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace normc;
using namespace normc::sched;

//===----------------------------------------------------------------------===//
// Launch facts
//===----------------------------------------------------------------------===//

static std::string typeName(Type t) {
  if (t.isF32())
    return "float";
  if (t.isF64())
    return "double";
  if (t.isF16())
    return "__half";
  if (t.isBF16())
    return "__nv_bfloat16";
  if (t.isInteger(32))
    return "int";
  llvm_unreachable("type has no CUDA spelling");
}

static std::string shortTypeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// Row values that must be kept between passes over the row: those read by a
/// reduction or the affine output, or read more than once.
static bool needsRowStorage(Value row) {
  if (!isa<RowType>(row.getType()))
    return false;
  unsigned uses = 0;
  for (Operation *user : row.getUsers()) {
    if (isa<ReduceOp, AffineRowOp>(user))
      return true;
    ++uses;
  }
  return uses > 1;
}

FailureOr<KernelLaunchInfo> normc::getLaunchInfo(KernelOp kernel) {
  ScheduleAttr schedule = kernel.getScheduleAttr();
  if (!schedule)
    return kernel.emitOpError("has no schedule; run sched-assign-schedule");
  KernelLaunchInfo info;
  info.name = kernel.getSymName().str();
  if (kernel.getCols())
    info.cols = *kernel.getCols();
  info.blockSize = schedule.getBlockSize();
  info.rowsPerBlock = schedule.getRowsPerBlock();
  info.vectorWidth = schedule.getVectorWidth();
  llvm::DenseSet<Value> written;
  kernel.getBody().walk([&](Operation *op) {
    if (auto store = dyn_cast<StoreRowOp>(op))
      written.insert(store.getDest());
    if (auto store = dyn_cast<StoreStatOp>(op))
      written.insert(store.getDest());
    if (schedule.getRowStorage() == RowStorage::shared && op->getNumResults() &&
        needsRowStorage(op->getResult(0)))
      info.sharedRowElementBytes.push_back(
          getElementType(op->getResult(0).getType()).getIntOrFloatBitWidth() /
          8);
  });
  using Kind = KernelParam::Kind;
  for (auto buffer : kernel.getBody().getOps<BufferOp>()) {
    Kind kind = llvm::TypeSwitch<Type, Kind>(buffer.getType())
                    .Case<RowsType>([](auto) { return Kind::Rows; })
                    .Case<FeaturesType>([](auto) { return Kind::Features; })
                    .Default([](Type) { return Kind::Stats; });
    info.params.push_back({kind, buffer.getName().str(),
                           shortTypeName(getElementType(buffer.getType())),
                           written.contains(buffer.getResult())});
    if (kind == Kind::Rows)
      info.params.push_back(
          {Kind::RowStride, buffer.getName().str() + "_stride", "", false});
  }
  info.params.push_back({Kind::RowCount, "rows", "", false});
  info.params.push_back({Kind::Cols, "cols", "", false});
  return info;
}

//===----------------------------------------------------------------------===//
// Kernel emission
//===----------------------------------------------------------------------===//

namespace {

class KernelEmitter {
public:
  KernelEmitter(KernelOp kernel, const KernelLaunchInfo &info,
                raw_indented_ostream &os)
      : kernel(kernel), schedule(kernel.getScheduleAttr()), info(info), os(os),
        acc(kernel.getAccumulate()), accName(typeName(acc)),
        width(schedule.getVectorWidth()),
        threadsPerRow(schedule.getThreadsPerRow()),
        storage(schedule.getRowStorage()) {}

  LogicalResult emit();

private:
  // Names.
  std::string fresh(StringRef prefix) {
    return (prefix + Twine(counter++)).str();
  }
  std::string rowPointer(Value buffer) { return bufferName(buffer) + "_row"; }
  std::string vecFlag(Value buffer) { return bufferName(buffer) + "_vec"; }
  std::string bufferName(Value buffer) {
    return buffer.getDefiningOp<BufferOp>().getName().str();
  }
  std::string cvt(Type to, StringRef value) {
    return ("NORMC_CVT(" + typeName(to) + ", " + value + ")").str();
  }
  std::string literal(Type t, double v);
  int64_t itemsPerThread() {
    return llvm::divideCeil(llvm::divideCeil(*kernel.getCols(), width),
                            threadsPerRow);
  }

  /// The C type of a kernel parameter: "const __nv_bfloat16 *", "int", ...
  std::string paramType(const KernelParam &p);

  // Structure.
  void emitSignature();
  void emitPrologue();
  LogicalResult emitOp(Operation &op);
  /// Opens a loop over this thread's chunks: `c` is the first feature of the
  /// chunk (and `i` the chunk's slot in registers).
  void openChunkLoop(StringRef comment);
  void closeChunkLoop();

  // Row values.
  void materialize(Value row);
  /// Emits, inside a chunk loop, what is needed to hold `row`'s chunk and
  /// returns an expression indexable by [e] for e in [0, N).
  std::string chunk(Value row);
  std::string loadChunk(Value buffer, Type element, StringRef pointer,
                        StringRef limit);

  // Ops.
  void emitReduce(ReduceOp op);
  void emitCrossThreadSum(const std::string &value);
  LogicalResult emitScalar(Operation &op);

  KernelOp kernel;
  ScheduleAttr schedule;
  const KernelLaunchInfo &info;
  raw_indented_ostream &os;
  Type acc;
  std::string accName;
  int64_t width, threadsPerRow;
  RowStorage storage;

  unsigned counter = 0;
  llvm::DenseMap<Value, std::string> names;  // scalars and stored rows
  llvm::DenseMap<Value, Value> home;         // global storage: where a row is
  llvm::DenseMap<Value, std::string> chunks; // in the current chunk loop
  unsigned sharedRegions = 0;
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
  case KernelParam::Kind::Cols:
    return "int";
  default:
    for (auto buffer : kernel.getBody().getOps<BufferOp>())
      if (buffer.getName() == p.name)
        return (p.written ? "" : "const ") +
               typeName(getElementType(buffer.getType())) + " *";
  }
  llvm_unreachable("a buffer parameter without its sched.buffer");
}

void KernelEmitter::emitSignature() {
  os << "NORMC_KERNEL(" << info.blockSize << ", " << info.name << ")(";
  llvm::interleave(
      info.params, os,
      [&](const KernelParam &p) {
        os << paramType(p) << (p.isBuffer() ? "" : " ") << p.name;
      },
      ", ");
  os << ") {\n";
}

void KernelEmitter::emitPrologue() {
  os.indent();
  if (auto cols = kernel.getCols())
    os << "const int d = " << *cols << "; // fixed at compile time\n";
  else
    os << "const int d = cols;\n";
  os << "const int lane_in_row = threadIdx.x % " << threadsPerRow << ";\n";
  os << "const int row_in_block = threadIdx.x / " << threadsPerRow << ";\n";
  bool crossWarp =
      threadsPerRow > 32 && !kernel.getBody().getOps<ReduceOp>().empty();
  if (crossWarp)
    os << "NORMC_STATIC_SHARED(" << accName << ", reduce_scratch, "
       << schedule.getRowsPerBlock() * (threadsPerRow / 32) << ");\n";
  // Each row kept in shared memory gets its own region of rows_per_block
  // rows, padded to whole vectors.
  if (!info.sharedRowElementBytes.empty()) {
    os << "NORMC_DYNAMIC_SHARED(shared_rows);\n";
    os << "const int pitch = (d + " << width - 1 << ") / " << width << " * "
       << width << ";\n";
    std::string offset = "0";
    for (auto [index, bytes] : llvm::enumerate(info.sharedRowElementBytes)) {
      os << "const int region_" << index << " = " << offset << ";\n";
      offset = llvm::formatv("region_{0} + ({1} * pitch + 15) / 16 * 16", index,
                             schedule.getRowsPerBlock() * bytes);
    }
  }
  for (auto buffer : kernel.getBody().getOps<BufferOp>())
    if (isa<FeaturesType>(buffer.getType()))
      os << "const bool " << vecFlag(buffer) << " = normc_aligned("
         << buffer.getName() << ", "
         << width * getElementType(buffer.getType()).getIntOrFloatBitWidth() / 8
         << ");\n";
  os << "for (long long row_group = (long long)blockIdx.x * "
     << schedule.getRowsPerBlock() << "; row_group < rows;\n"
     << "     row_group += (long long)gridDim.x * "
     << schedule.getRowsPerBlock() << ") {\n";
  os.indent();
  os << "const long long row = row_group + row_in_block;\n";
  os << "// Threads of a row past the end load zeros and store nothing, but "
        "still\n// take part in the block's barriers.\n";
  os << "const int limit = row < rows ? d : 0;\n";
  for (auto buffer : kernel.getBody().getOps<BufferOp>()) {
    if (!isa<RowsType>(buffer.getType()))
      continue;
    bool written = llvm::any_of(
        buffer->getUsers(), [](Operation *u) { return isa<StoreRowOp>(u); });
    std::string name = buffer.getName().str();
    os << (written ? "" : "const ")
       << typeName(getElementType(buffer.getType())) << " *" << name
       << "_row = " << name << " + (row < rows ? row : 0) * " << name
       << "_stride;\n";
    os << "const bool " << name << "_vec = normc_aligned(" << name << "_row, "
       << width * getElementType(buffer.getType()).getIntOrFloatBitWidth() / 8
       << ");\n";
  }
}

void KernelEmitter::openChunkLoop(StringRef comment) {
  chunks.clear();
  os << "// " << comment << "\n";
  if (storage == RowStorage::registers) {
    os << "#pragma unroll\n";
    os << "for (int i = 0; i < " << itemsPerThread() << "; ++i) {\n";
    os.indent();
    os << "const int c = (i * " << threadsPerRow << " + lane_in_row) * "
       << width << ";\n";
  } else {
    os << "for (int c = lane_in_row * " << width
       << "; c < d; c += " << threadsPerRow * width << ") {\n";
    os.indent();
  }
}

void KernelEmitter::closeChunkLoop() {
  os.unindent();
  os << "}\n";
  chunks.clear();
}

std::string KernelEmitter::loadChunk(Value buffer, Type element,
                                     StringRef pointer, StringRef limit) {
  std::string name = fresh("c");
  os << "alignas(16) " << typeName(element) << " " << name << "[" << width
     << "];\n";
  os << "normc_load<" << width << ">(" << name << ", " << pointer << ", c, "
     << limit << ", " << vecFlag(buffer) << ");\n";
  return name;
}

std::string KernelEmitter::chunk(Value row) {
  auto cached = chunks.find(row);
  if (cached != chunks.end())
    return cached->second;
  std::string result;
  Type element = getElementType(row.getType());
  if (names.count(row)) {
    result = storage == RowStorage::registers ? names[row] + "[i]"
                                              : "(" + names[row] + " + c)";
  } else if (Value buffer = home.lookup(row)) {
    result = loadChunk(buffer, element, rowPointer(buffer), "limit");
  } else if (auto load = row.getDefiningOp<LoadRowOp>()) {
    result = loadChunk(load.getSource(), element, rowPointer(load.getSource()),
                       "limit");
  } else if (auto add = row.getDefiningOp<AddRowsOp>()) {
    std::string lhs = chunk(add.getLhs()), rhs = chunk(add.getRhs());
    result = fresh("c");
    os << "alignas(16) " << typeName(element) << " " << result << "[" << width
       << "];\n";
    os << "#pragma unroll\n";
    os << "for (int e = 0; e < " << width << "; ++e)\n";
    os << "  " << result << "[e] = "
       << cvt(element, cvt(acc, lhs + "[e]") + " + " + cvt(acc, rhs + "[e]"))
       << ";\n";
  } else {
    auto affine = row.getDefiningOp<AffineRowOp>();
    std::string input = chunk(affine.getInput());
    std::string gain, bias;
    if (Value g = affine.getGain())
      gain = loadChunk(g, getElementType(g.getType()), bufferName(g), "d");
    if (Value b = affine.getBias())
      bias = loadChunk(b, getElementType(b.getType()), bufferName(b), "d");
    result = fresh("c");
    os << "alignas(16) " << typeName(element) << " " << result << "[" << width
       << "];\n";
    os << "#pragma unroll\n";
    os << "for (int e = 0; e < " << width << "; ++e) {\n";
    std::string expr = cvt(acc, input + "[e]");
    if (Value mean = affine.getMean())
      expr = "(" + expr + " - " + names[mean] + ")";
    if (Value rstd = affine.getRstd())
      expr += " * " + names[rstd];
    if (!gain.empty()) {
      double offset = affine.getGainOffset().convertToDouble();
      std::string g = cvt(acc, gain + "[e]");
      expr += offset == 0.0 ? " * " + g
                            : " * (" + literal(acc, offset) + " + " + g + ")";
    }
    if (!bias.empty())
      expr += " + " + cvt(acc, bias + "[e]");
    os << "  const " << accName << " t = " << expr << ";\n";
    os << "  " << result << "[e] = " << cvt(element, "t") << ";\n";
    os << "}\n";
  }
  chunks[row] = result;
  return result;
}

void KernelEmitter::materialize(Value row) {
  Type element = getElementType(row.getType());
  std::string name = fresh("v");
  if (storage == RowStorage::registers) {
    os << "alignas(16) " << typeName(element) << " " << name << "["
       << itemsPerThread() << "][" << width << "];\n";
  } else {
    os << typeName(element) << " *" << name << " = reinterpret_cast<"
       << typeName(element) << " *>(shared_rows + region_" << sharedRegions++
       << ") + row_in_block * pitch;\n";
  }
  openChunkLoop(("keep " + name + " in " + stringifyRowStorage(storage)).str());
  std::string value = chunk(row);
  os << "#pragma unroll\n";
  os << "for (int e = 0; e < " << width << "; ++e)\n";
  if (storage == RowStorage::registers)
    os << "  " << name << "[i][e] = " << value << "[e];\n";
  else
    os << "  " << name << "[c + e] = " << value << "[e];\n";
  closeChunkLoop();
  names[row] = name;
}

void KernelEmitter::emitCrossThreadSum(const std::string &value) {
  int64_t lanes = std::min<int64_t>(threadsPerRow, 32);
  for (int64_t offset = lanes / 2; offset > 0; offset /= 2)
    os << value << " += __shfl_xor_sync(0xffffffffu, " << value << ", "
       << offset << ");\n";
  if (threadsPerRow <= 32)
    return;
  int64_t warps = threadsPerRow / 32;
  std::string slot = "row_in_block * " + std::to_string(warps);
  os << "// Across the " << warps << " warps of the row.\n";
  os << "if ((lane_in_row & 31) == 0)\n";
  os << "  reduce_scratch[" << slot << " + (lane_in_row >> 5)] = " << value
     << ";\n";
  os << "__syncthreads();\n";
  os << value << " = reduce_scratch[" << slot << "];\n";
  os << "#pragma unroll\n";
  os << "for (int w = 1; w < " << warps << "; ++w)\n";
  os << "  " << value << " += reduce_scratch[" << slot << " + w];\n";
  os << "__syncthreads(); // reduce_scratch is reused by the next reduction\n";
}

void KernelEmitter::emitReduce(ReduceOp op) {
  std::string name = fresh("s");
  bool squares = op.getKind() == ReduceKind::sum_squares;
  os << accName << " " << name << " = " << literal(acc, 0.0) << ";\n";
  openChunkLoop((squares ? "sum of squares over the first "
                         : "sum over the "
                           "first ") +
                names[op.getCount()] + " features");
  std::string row = chunk(op.getRow());
  os << "#pragma unroll\n";
  os << "for (int e = 0; e < " << width << "; ++e) {\n";
  os << "  if (c + e < " << names[op.getCount()] << ") {\n";
  std::string term = cvt(acc, row + "[e]");
  if (Value center = op.getCenter())
    term += " - " + names[center];
  os << "    const " << accName << " t = " << term << ";\n";
  os << "    " << name << " += " << (squares ? "t * t" : "t") << ";\n";
  os << "  }\n}\n";
  closeChunkLoop();
  emitCrossThreadSum(name);
  names[op.getResult()] = name;
}

LogicalResult KernelEmitter::emitScalar(Operation &op) {
  auto operand = [&](unsigned i) { return names[op.getOperand(i)]; };
  std::string expr;
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    Attribute value = constant.getValue();
    if (auto f = dyn_cast<FloatAttr>(value))
      expr = literal(f.getType(), f.getValueAsDouble());
    else if (auto i = dyn_cast<IntegerAttr>(value))
      expr = std::to_string(i.getInt());
  } else if (isa<arith::AddFOp, arith::AddIOp>(op)) {
    expr = operand(0) + " + " + operand(1);
  } else if (isa<arith::SubFOp, arith::SubIOp>(op)) {
    expr = operand(0) + " - " + operand(1);
  } else if (isa<arith::MulFOp>(op)) {
    expr = operand(0) + " * " + operand(1);
  } else if (isa<arith::DivFOp>(op)) {
    expr = operand(0) + " / " + operand(1);
  } else if (isa<arith::SIToFPOp, arith::TruncFOp, arith::ExtFOp>(op)) {
    expr = cvt(op.getResult(0).getType(), operand(0));
  } else if (isa<math::SqrtOp>(op)) {
    expr = "normc_sqrt(" + operand(0) + ")";
  } else if (isa<math::RsqrtOp>(op)) {
    expr = "normc_rsqrt(" + operand(0) + ")";
  } else if (auto count = dyn_cast<FeatureCountOp>(op)) {
    double fraction = count.getFraction().convertToDouble();
    if (auto cols = kernel.getCols())
      expr = std::to_string(std::max<int64_t>(
          1, static_cast<int64_t>(std::floor(fraction * double(*cols)))));
    else
      expr = llvm::formatv("max(1, (int)floor({0:e16} * (double)d))", fraction)
                 .str();
  }
  if (expr.empty())
    return op.emitOpError("cannot be emitted as CUDA");
  std::string name = fresh("s");
  os << "const " << typeName(op.getResult(0).getType()) << " " << name << " = "
     << expr << ";\n";
  names[op.getResult(0)] = name;
  return success();
}

LogicalResult KernelEmitter::emitOp(Operation &op) {
  if (isa<BufferOp>(op))
    return success();
  if (auto store = dyn_cast<StoreRowOp>(op)) {
    Value dest = store.getDest();
    openChunkLoop("store " + bufferName(dest));
    std::string value = chunk(store.getValue());
    os << "normc_store<" << width << ">(" << rowPointer(dest) << ", " << value
       << ", c, limit, " << vecFlag(dest) << ");\n";
    closeChunkLoop();
    // Re-reading what this thread stored needs no barrier: every pass maps
    // the same features to the same thread.
    if (storage == RowStorage::global && !home.count(store.getValue()))
      home[store.getValue()] = dest;
    return success();
  }
  if (auto stat = dyn_cast<StoreStatOp>(op)) {
    os << "if (row < rows && lane_in_row == 0)\n";
    os << "  " << bufferName(stat.getDest())
       << "[row] = " << names[stat.getValue()] << ";\n";
    return success();
  }
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    emitReduce(reduce);
    return success();
  }
  if (isa<LoadRowOp, AddRowsOp, AffineRowOp>(op)) {
    Value row = op.getResult(0);
    if (storage == RowStorage::global) {
      if (auto load = dyn_cast<LoadRowOp>(op))
        home[row] = load.getSource();
    } else if (needsRowStorage(row)) {
      materialize(row);
    }
    return success();
  }
  return emitScalar(op);
}

LogicalResult KernelEmitter::emit() {
  for (auto buffer : kernel.getBody().getOps<BufferOp>()) {
    static const llvm::StringSet<> reserved = {"d",
                                               "cols",
                                               "rows",
                                               "row",
                                               "row_group",
                                               "limit",
                                               "pitch",
                                               "i",
                                               "c",
                                               "e",
                                               "t",
                                               "w",
                                               "lane_in_row",
                                               "row_in_block",
                                               "reduce_scratch",
                                               "shared_rows"};
    StringRef name = buffer.getName();
    auto isWordChar = [](char ch) { return llvm::isAlnum(ch) || ch == '_'; };
    bool identifier = !name.empty() && !llvm::isDigit(name[0]) &&
                      llvm::all_of(name, isWordChar);
    // Locals the emitter makes: c0, s1, v2, region_0, NAME_row, NAME_vec.
    bool generated = (name.size() > 1 && StringRef("csv").contains(name[0]) &&
                      llvm::all_of(name.drop_front(), llvm::isDigit)) ||
                     name.starts_with("region_") ||
                     name.starts_with("normc_") || name.ends_with("_row") ||
                     name.ends_with("_vec") || name.ends_with("_stride");
    if (!identifier || reserved.contains(name) || generated)
      return buffer.emitOpError("name '")
             << name << "' cannot be a CUDA parameter name";
  }
  if (storage == RowStorage::registers && itemsPerThread() > 32)
    return kernel.emitOpError("row_storage = registers would keep ")
           << itemsPerThread()
           << " vectors per thread; use more threads per "
              "row or another row_storage";

  os << "// kernel " << info.name << ": d = "
     << (info.cols ? std::to_string(*info.cols) + " (fixed)" : "run-time")
     << ", accumulate " << shortTypeName(acc) << "\n";
  os << "//   schedule: " << schedule.getRowsPerBlock() << " row(s) per block, "
     << threadsPerRow << " threads per row, " << width
     << "-element vectors, row kept in " << stringifyRowStorage(storage)
     << "\n";
  os << "//   launch: blockDim.x = " << info.blockSize
     << ", any gridDim.x (blocks stride over groups of "
     << schedule.getRowsPerBlock() << " rows), dynamic shared memory = ";
  if (info.sharedRowElementBytes.empty())
    os << "0\n";
  else
    os << info.sharedRowElementBytes.size()
       << " region(s) of rows_per_block * round_up(d, vector_width) elements\n";
  emitSignature();
  emitPrologue();
  for (Operation &op : kernel.getBody().front())
    if (failed(emitOp(op)))
      return failure();
  os.unindent();
  os << "}\n";
  os.unindent();
  os << "}\n\n";

  // The CPU device calls kernels through this, with cuLaunchKernel-style
  // arguments: args[i] points at the value of parameter i.
  os << "#ifdef NORMC_CPU\n";
  os << "extern \"C\" void normc_cpu_entry_" << info.name
     << "(void **args) {\n";
  os << "  " << info.name << "(";
  unsigned index = 0;
  llvm::interleave(
      info.params, os,
      [&](const KernelParam &p) {
        os << "*reinterpret_cast<" << paramType(p) << " const *>(args["
           << index++ << "])";
      },
      ",\n      ");
  os << ");\n}\n#endif\n";
  return success();
}

LogicalResult normc::emitCuda(ModuleOp module, llvm::raw_ostream &rawOs) {
  raw_indented_ostream os(rawOs);
  os << "// Generated by normc from the schedule-level IR (sched dialect).\n";
  os << "// To change it, edit the IR (normc compile --emit=lowered) and "
        "compile that.\n";
  emitCudaSupport(os);
  for (KernelOp kernel : module.getOps<KernelOp>()) {
    FailureOr<KernelLaunchInfo> info = getLaunchInfo(kernel);
    if (failed(info))
      return failure();
    os << "\n";
    if (failed(KernelEmitter(kernel, *info, os).emit()))
      return failure();
  }
  return success();
}
