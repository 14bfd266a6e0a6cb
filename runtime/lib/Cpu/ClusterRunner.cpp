//===- ClusterRunner.cpp - Runs thread-block clusters on one host thread --===//

#include "ClusterRunner.h"

#include "Diagnostics.h"

#include <algorithm>
#include <numeric>

using namespace normc::cpu;

ClusterRunner::ClusterRunner(const LaunchConfig &config)
    : config(config), order(config.options.clusterSize) {
  for (unsigned rank = 0; rank < config.options.clusterSize; ++rank)
    blocks.push_back(std::make_unique<BlockRunner>(config, *this, rank));
}

void ClusterRunner::orderRanks() {
  std::iota(order.begin(), order.end(), 0u);
  switch (config.options.laneOrder) {
  case LaneOrder::Forward:
  case LaneOrder::RunAhead:
    break;
  case LaneOrder::Reverse:
    std::reverse(order.begin(), order.end());
    break;
  case LaneOrder::Random:
    for (size_t i = order.size(); i > 1; --i) {
      // splitmix64, as for the lanes.
      std::uint64_t z = (randomState += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      std::swap(order[i - 1], order[(z ^ (z >> 31)) % i]);
    }
    break;
  }
}

std::string ClusterRunner::run(std::uint64_t index) {
  std::uint64_t first = index * size();
  randomState = config.options.seed ^ (index * 0x9e3779b97f4a7c15ull);
  for (unsigned rank = 0; rank < size(); ++rank)
    blocks[rank]->begin(first + rank);
  auto any = [&](auto predicate) {
    return std::any_of(blocks.begin(), blocks.end(),
                       [&](const auto &b) { return predicate(*b); });
  };
  auto all = [&](auto predicate) {
    return std::all_of(blocks.begin(), blocks.end(),
                       [&](const auto &b) { return predicate(*b); });
  };
  while (true) {
    orderRanks();
    for (unsigned rank : order)
      blocks[rank]->step();
    if (any([](const BlockRunner &b) { return b.failed(); }) ||
        all([](const BlockRunner &b) { return b.done(); }))
      break;
    if (all([](const BlockRunner &b) { return b.atClusterBarrier(); })) {
      Site site = blocks[0]->clusterBarrierSite();
      for (auto &b : blocks)
        if (!sameSite(b->clusterBarrierSite(), site))
          b->setDeadlock("\n  its threads wait at the cluster barrier at " +
                         formatSite(b->clusterBarrierSite()) +
                         " while block 0 of its cluster waits at the one at " +
                         formatSite(site) + " (a barrier in divergent code)");
      if (any([](const BlockRunner &b) { return b.failed(); }))
        break;
      for (auto &b : blocks)
        b->releaseClusterBarrier();
      continue;
    }
    // No block can go on: one waits at a barrier that others never reach.
    for (auto &b : blocks)
      if (!b->done() && !b->atClusterBarrier())
        b->setDeadlock();
    if (!any([](const BlockRunner &b) { return b.failed(); })) {
      std::vector<unsigned> exited;
      for (unsigned rank = 0; rank < size(); ++rank)
        if (blocks[rank]->done())
          exited.push_back(rank);
      for (auto &b : blocks)
        if (!b->done())
          b->setDeadlock("\n  the cluster barrier at " +
                         formatSite(b->clusterBarrierSite()) +
                         " waits for blocks " + formatRanges(exited) +
                         " of the cluster (by rank), which exited");
    }
    break;
  }
  std::string error;
  for (auto &b : blocks) {
    std::string message = b->finish();
    if (error.empty())
      error = std::move(message);
  }
  return error;
}
