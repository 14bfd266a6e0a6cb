//===- CostModel.h - A static estimate of a schedule's speed --------------===//
//
// The tuner measures every candidate it keeps, and compiling one costs
// about 0.3 s of NVRTC; so before compiling, it ranks the candidates by
// this estimate and keeps the few that can win. The estimate uses only
// static facts: the bytes a row moves (rowTraffic of the kernel ABI: each
// [rows, d] buffer once, the inputs twice when the row is re-read from global
// memory), the registers and shared memory a block needs and the blocks an
// SM then holds, the bytes each thread keeps in flight (Little's law: an SM
// needs about 32 KiB in flight to cover the memory latency), how many of
// the SMs the rows keep busy, and the latency of each row's reductions
// (warp shuffles, block barriers, cluster barriers; in reproducible mode a
// butterfly per chunk) spread over the rows an SM works on at once.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_POLICY_COSTMODEL_H
#define NORMC_POLICY_COSTMODEL_H

#include "normc/Abi/KernelInfo.h"
#include "normc/Abi/Schedule.h"

#include <vector>

namespace normc {

/// The estimate and the facts it comes from.
struct CostEstimate {
  int64_t blocksPerSm = 0;
  int64_t registersPerThread = 0;
  int64_t sharedBytesPerBlock = 0;
  double bytesInFlightPerSm = 0;
  double bytes = 0; // moved in all, for `rows` rows
  double seconds = 0;
};
/// `reproducible`: the kernel adds its rows in reproducible mode's tree,
/// whose shuffles are per chunk rather than per row.
CostEstimate estimateCost(const Schedule &schedule, const RowTraffic &traffic,
                          int64_t d, int64_t rows, int arch,
                          bool reproducible = false);

/// How many candidates the tuner compiles and measures.
constexpr size_t kTunedCandidates = 6;

/// `candidates` (the default first) cut to `keep`, in the order given: the
/// default, the one of the lowest estimate of each kind (strategy and row
/// storage), then the others of the lowest estimate.
std::vector<Schedule> pruneCandidates(const std::vector<Schedule> &candidates,
                                      const RowTraffic &traffic, int64_t d,
                                      int64_t rows, int arch,
                                      bool reproducible = false,
                                      size_t keep = kTunedCandidates);

} // namespace normc

#endif // NORMC_POLICY_COSTMODEL_H
