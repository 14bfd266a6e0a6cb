//===- WarpRendezvous.h - Matching the lanes of a warp at collectives -----===//
//
// A warp collective (__shfl_*_sync, __ballot_sync, __syncwarp) completes
// when every lane named in its mask has arrived with that same mask and the
// same operation. Lanes may form several disjoint groups at once (e.g. two
// half-warps); a lane arriving with a mask that overlaps a waiting group's
// but differs from it, or with another operation, is a conflict. This class
// is the bookkeeping only: the executor suspends and resumes the lanes.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_CPU_WARPRENDEZVOUS_H
#define NORMC_RUNTIME_CPU_WARPRENDEZVOUS_H

#include "normc/Runtime/Cpu/CpuAbi.h"

namespace normc {
namespace cpu {

/// What one lane brings to a collective.
struct WarpArrival {
  WarpOp op;
  unsigned mask;
  unsigned long long value;
  int arg;
  int width;
};

/// The value a lane receives when its source lane takes no part in the
/// shuffle (undefined in CUDA): all bits set, a NaN for every float type.
constexpr unsigned long long kPoisonBits = ~0ull;

/// The lane whose value `lane` receives from a shuffle of kind `op`, or
/// `lane` itself where CUDA returns the caller's own value. `width` is a
/// power of two in [1, 32]; `arg` is the source lane, delta or lane mask.
unsigned shuffleSource(WarpOp op, unsigned lane, int arg, int width);

class WarpRendezvous {
public:
  /// A collective some lanes wait at.
  struct Group {
    unsigned mask;
    unsigned arrived;
    WarpOp op;
  };

  /// Forgets every waiting lane (a new block).
  void reset() { groupCount = 0; }

  /// Records `lane`'s arrival. Returns the mask of the group it completes
  /// (whose results are then ready) or 0 while it must wait. On a conflict
  /// returns 0 and points `conflict` at the group it clashes with.
  unsigned arrive(unsigned lane, const WarpArrival &arrival,
                  const Group *&conflict);

  /// What `lane` received from its last completed collective.
  unsigned long long result(unsigned lane) const { return results[lane]; }

  const Group *begin() const { return groups; }
  const Group *end() const { return groups + groupCount; }

private:
  void complete(const Group &group);

  Group groups[kWarpSize];
  unsigned groupCount = 0;
  WarpArrival arrivals[kWarpSize];
  unsigned long long results[kWarpSize];
};

} // namespace cpu
} // namespace normc

#endif // NORMC_RUNTIME_CPU_WARPRENDEZVOUS_H
