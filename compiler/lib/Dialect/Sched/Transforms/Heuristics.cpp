//===- Heuristics.cpp - Default schedules for sched.kernel ----------------===//
#include "normc/Dialect/Sched/Transforms/Heuristics.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace normc::sched;

int64_t normc::sched::defaultVectorWidth(KernelOp kernel) {
  unsigned widest = 8;
  for (auto buffer : kernel.getBody().getOps<BufferOp>())
    if (!isa<StatsType>(buffer.getType()))
      widest = std::max(widest,
                        getElementType(buffer.getType()).getIntOrFloatBitWidth());
  return 128 / widest;
}

ScheduleAttr normc::sched::defaultSchedule(KernelOp kernel) {
  constexpr int64_t kVectorsPerThread = 4, kMaxRegisterVectors = 8,
                    kMinBlock = 128, kMaxBlock = 1024;
  int64_t width = defaultVectorWidth(kernel);
  MLIRContext *ctx = kernel.getContext();
  std::optional<uint64_t> cols = kernel.getCols();
  if (!cols)
    return ScheduleAttr::get(ctx, /*rowsPerBlock=*/1, /*threadsPerRow=*/256,
                             width, RowStorage::global);
  int64_t vectors = llvm::divideCeil(*cols, width);
  int64_t threads = std::clamp<int64_t>(
      llvm::PowerOf2Ceil(llvm::divideCeil(vectors, kVectorsPerThread)), 1,
      kMaxBlock);
  int64_t rowsPerBlock = std::max<int64_t>(1, kMinBlock / threads);
  RowStorage storage =
      llvm::divideCeil(vectors, threads) <= kMaxRegisterVectors
          ? RowStorage::registers
          : RowStorage::global;
  return ScheduleAttr::get(ctx, rowsPerBlock, threads, width, storage);
}
