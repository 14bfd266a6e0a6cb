//===- WarpRendezvous.cpp - Matching the lanes of a warp at collectives ---===//

#include "WarpRendezvous.h"

using namespace normc::cpu;

unsigned normc::cpu::shuffleSource(WarpOp op, unsigned lane, int arg,
                                   int width) {
  // PTX shfl semantics: only the low five bits of the operand count, and a
  // source outside the caller's segment of `width` lanes yields the
  // caller's own value (for xor only above the segment, as in hardware).
  unsigned bits = static_cast<unsigned>(arg) & (kWarpSize - 1);
  unsigned size = static_cast<unsigned>(width);
  unsigned first = lane & ~(size - 1);
  unsigned last = first + size - 1;
  switch (op) {
  case WarpOp::ShflIdx:
    return first | (bits & (size - 1));
  case WarpOp::ShflUp:
    return lane - first >= bits ? lane - bits : lane;
  case WarpOp::ShflDown:
    return lane + bits <= last ? lane + bits : lane;
  case WarpOp::ShflXor:
    return (lane ^ bits) <= last ? lane ^ bits : lane;
  case WarpOp::Ballot:
  case WarpOp::Sync:
    break;
  }
  return lane;
}

unsigned WarpRendezvous::arrive(unsigned lane, const WarpArrival &arrival,
                                const Group *&conflict) {
  conflict = nullptr;
  // Waiting groups are pairwise disjoint, so at most one can match.
  Group *group = nullptr;
  for (Group *g = groups; g != groups + groupCount; ++g) {
    if (g->mask == arrival.mask && g->op == arrival.op) {
      group = g;
      break;
    }
    if (g->mask & arrival.mask) {
      conflict = g;
      return 0;
    }
  }
  if (!group) {
    group = &groups[groupCount++];
    *group = Group{arrival.mask, 0, arrival.op};
  }
  arrivals[lane] = arrival;
  group->arrived |= 1u << lane;
  if (group->arrived != group->mask)
    return 0;
  complete(*group);
  unsigned mask = group->mask;
  *group = groups[--groupCount];
  return mask;
}

void WarpRendezvous::complete(const Group &group) {
  unsigned ballot = 0;
  if (group.op == WarpOp::Ballot)
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      if ((group.mask >> lane & 1) && arrivals[lane].value != 0)
        ballot |= 1u << lane;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(group.mask >> lane & 1))
      continue;
    const WarpArrival &mine = arrivals[lane];
    switch (group.op) {
    case WarpOp::Ballot:
      results[lane] = ballot;
      break;
    case WarpOp::Sync:
      results[lane] = 0;
      break;
    default: {
      unsigned source = shuffleSource(group.op, lane, mine.arg, mine.width);
      results[lane] =
          (group.mask >> source & 1) ? arrivals[source].value : kPoisonBits;
    }
    }
  }
}
