//===- CostModel.cpp - A static estimate of a schedule's speed ------------===//
#include "normc/Policy/CostModel.h"

#include "normc/Abi/Number.h"
#include "normc/Abi/SharedLayout.h"

#include <algorithm>
#include <numeric>
#include <tuple>

using namespace normc;

namespace {

/// The GPU of an SM version, as the estimate needs it (H100/H200 for 90,
/// A100 for 80 and for devices it does not know).
struct GpuFacts {
  int64_t sms;
  double bytesPerSecond;
  int64_t sharedBytesPerSm;
};

GpuFacts gpuFacts(int arch) {
  if (arch >= 90 || arch == 0)
    return {132, 3.35e12, 228 * 1024};
  return {108, 2.0e12, 164 * 1024};
}

/// Bytes an SM keeps in flight to cover the memory latency.
constexpr double kBytesInFlightPerSm = 32 * 1024;
/// The latency of one reduction: butterfly shuffles within a warp; plus
/// the block's barriers and scratch across warps; plus the cluster's
/// barriers across blocks.
constexpr double kWarpReduceSeconds = 0.05e-6;
constexpr double kBlockReduceSeconds = 0.2e-6;
constexpr double kClusterReduceSeconds = 0.5e-6;
/// Reproducible mode's tree (docs/numerics.md): every chunk's tile takes a
/// butterfly of its own (overlapping the others', about a quarter of a warp
/// reduction's latency each), and a row of several warps reads its tile
/// table after one more barrier.
constexpr double kTileShuffleSeconds = 0.0125e-6;
constexpr double kTileTableFactor = 1.5;
/// Reductions a row takes (LayerNorm's two; RMSNorm's one is rounded up).
constexpr double kReductionsPerRow = 2;
/// Shared memory moves about eight times the bytes HBM does; a staged row
/// is written once and read back about twice.
constexpr double kSharedOverHbm = 8;
constexpr double kSharedAccessesPerByte = 3;
/// Accesses narrower than 16 bytes take more instructions per byte.
constexpr double kNarrowAccessPenalty = 0.1;
/// Registers a thread uses besides kept rows.
constexpr int64_t kBaseRegisters = 32;
constexpr int64_t kMaxThreadsPerSm = 2048, kMaxBlocksPerSm = 32;

} // namespace

CostEstimate normc::estimateCost(const Schedule &s, const RowTraffic &traffic,
                                 int64_t d, int64_t rows, int arch,
                                 bool reproducible) {
  GpuFacts gpu = gpuFacts(arch);
  CostEstimate cost;
  d = std::max<int64_t>(1, d);
  rows = std::max<int64_t>(1, rows);
  int64_t features = featuresPerBlock(s, d);
  int64_t vectors = vectorsPerThread(s, d);
  // The share of the threads' chunks that hold features.
  double laneUse =
      double(features) / double(vectors * s.threadsPerRow * s.vectorWidth);
  bool keeps = s.rowStorage != RowStorage::Global;
  cost.registersPerThread =
      kBaseRegisters +
      (s.rowStorage == RowStorage::Registers
           ? divideCeil(vectors * s.vectorWidth * traffic.widestBytes, 4)
           : 0);
  if (s.rowStorage == RowStorage::Shared)
    cost.sharedBytesPerBlock =
        keptRowRegion(s, d, traffic.widestBytes).bytes(d);
  int64_t block = s.blockSize();
  cost.blocksPerSm =
      std::min({kMaxBlocksPerSm, kMaxThreadsPerSm / block,
                65536 / (cost.registersPerThread * block),
                cost.sharedBytesPerBlock
                    ? gpu.sharedBytesPerSm / (cost.sharedBytesPerBlock + 1024)
                    : kMaxBlocksPerSm});
  cost.blocksPerSm = std::max<int64_t>(1, cost.blocksPerSm);
  // Blocks in the grid, the SMs they occupy and how many each holds.
  int64_t blocks = divideCeil(rows, s.rowsPerBlock) * s.blocksPerRow();
  int64_t activeSms = std::min(gpu.sms, blocks);
  int64_t resident = std::min(cost.blocksPerSm, divideCeil(blocks, activeSms));
  // Kept rows are loaded (or copied) whole before the first use; rows
  // re-read from global memory are streamed a chunk or two at a time.
  int64_t chunksInFlight = keeps ? vectors : std::min<int64_t>(vectors, 2);
  cost.bytesInFlightPerSm =
      double(resident * block) * laneUse *
      double(chunksInFlight * s.vectorWidth * traffic.readBytes);
  double efficiency =
      std::min(1.0, cost.bytesInFlightPerSm / kBytesInFlightPerSm);
  cost.bytes =
      double(rows) * double(d) *
      double(traffic.readBytes * (keeps ? 1 : 2) + traffic.writtenBytes);
  double busy = double(activeSms) / double(gpu.sms);
  int64_t accessBytes =
      std::min<int64_t>(16, s.vectorWidth * traffic.widestBytes);
  double memorySeconds =
      cost.bytes / (gpu.bytesPerSecond * efficiency * busy) *
      (1 + kNarrowAccessPenalty * (16.0 / double(accessBytes) - 1));
  if (s.rowStorage == RowStorage::Shared)
    memorySeconds += double(rows) * double(d) * double(traffic.widestBytes) *
                     kSharedAccessesPerByte /
                     (gpu.bytesPerSecond * kSharedOverHbm * busy);
  double reduceSeconds = s.threadsPerRow <= 32  ? kWarpReduceSeconds
                         : s.blocksPerRow() > 1 ? kClusterReduceSeconds
                                                : kBlockReduceSeconds;
  if (reproducible)
    reduceSeconds =
        reduceSeconds * (s.threadsPerRow > 32 ? kTileTableFactor : 1) +
        double(vectors) * kTileShuffleSeconds;
  double blockRowsPerSm = double(rows * s.blocksPerRow()) / double(activeSms);
  double reduceTotal = blockRowsPerSm * kReductionsPerRow * reduceSeconds /
                       double(resident * s.rowsPerBlock);
  cost.seconds = memorySeconds + reduceTotal;
  return cost;
}

std::vector<Schedule>
normc::pruneCandidates(const std::vector<Schedule> &candidates,
                       const RowTraffic &traffic, int64_t d, int64_t rows,
                       int arch, bool reproducible, size_t keep) {
  if (candidates.size() <= keep)
    return candidates;
  std::vector<double> seconds;
  for (const Schedule &s : candidates)
    seconds.push_back(
        estimateCost(s, traffic, d, rows, arch, reproducible).seconds);
  std::vector<size_t> order(candidates.size() - 1);
  std::iota(order.begin(), order.end(), 1);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::tie(seconds[a], a) < std::tie(seconds[b], b);
  });
  // The estimate is rough where strategies differ most, so the best of
  // each kind (strategy and row storage) goes first, then the next best.
  auto kind = [&](size_t i) {
    return std::make_pair(candidates[i].strategy, candidates[i].rowStorage);
  };
  std::vector<size_t> chosen = {0}, rest;
  for (size_t i : order) {
    bool newKind = std::none_of(chosen.begin(), chosen.end(),
                                [&](size_t c) { return kind(c) == kind(i); });
    (newKind && chosen.size() < keep ? chosen : rest).push_back(i);
  }
  for (size_t i : rest)
    if (chosen.size() < keep)
      chosen.push_back(i);
  std::sort(chosen.begin(), chosen.end());
  std::vector<Schedule> kept;
  for (size_t i : chosen)
    kept.push_back(candidates[i]);
  return kept;
}
