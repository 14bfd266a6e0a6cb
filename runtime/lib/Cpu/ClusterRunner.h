//===- ClusterRunner.h - Runs thread-block clusters on one host thread ----===//
//
// The blocks of a cluster wait for each other at the cluster barrier and
// read each other's shared memory, so they run together: a ClusterRunner
// owns one BlockRunner per block of a cluster and lets each run, in the
// launch's lane order (forward, reversed or shuffled ranks), until it
// waits. When every thread of every block waits at the cluster barrier, it
// releases them all; when no block can go on otherwise, the cluster is
// deadlocked. A launch without clusters is a cluster of one block.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_CPU_CLUSTERRUNNER_H
#define NORMC_RUNTIME_CPU_CLUSTERRUNNER_H

#include "BlockRunner.h"

#include <memory>

namespace normc {
namespace cpu {

class ClusterRunner {
public:
  /// Makes the fibers of every block of a cluster; throws std::bad_alloc
  /// and friends.
  explicit ClusterRunner(const LaunchConfig &config);

  /// Runs cluster `index` (blocks index * size() ...); returns an error
  /// message naming the kernel, block and threads, or "" on success.
  std::string run(std::uint64_t index);

  unsigned size() const { return static_cast<unsigned>(blocks.size()); }
  BlockRunner &block(unsigned rank) { return *blocks[rank]; }

private:
  /// The ranks in the order this round runs them.
  void orderRanks();

  const LaunchConfig &config;
  std::vector<std::unique_ptr<BlockRunner>> blocks;
  std::vector<unsigned> order;
  std::uint64_t randomState = 0;
};

} // namespace cpu
} // namespace normc

#endif // NORMC_RUNTIME_CPU_CLUSTERRUNNER_H
