//===- Launch.cpp - Launching a kernel on the CPU device ------------------===//
//
// Checks the configuration as the CUDA driver would, then lets a pool of
// host threads take clusters (single blocks, without clusters) from a
// shared counter, each with its own ClusterRunner. The first failure stops
// further clusters; of the failures
// seen, the one of the lowest block is reported.
//
//===----------------------------------------------------------------------===//

#include "BlockRunner.h"
#include "ClusterRunner.h"
#include "Diagnostics.h"
#include "SharedArena.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <system_error>
#include <thread>

using namespace normc::cpu;

namespace {

/// The most blocks of a cluster, without opting in to larger ones on sm_90.
constexpr unsigned kMaxClusterSize = 8;

/// The smallest fiber stack accepted: Boost.Context keeps its own record
/// on it, and a printf alone needs a few KiB.
constexpr std::size_t kMinStackBytes = 16 * 1024;

void checkConfiguration(const CpuKernel &kernel, Dim3 grid, Dim3 block,
                        std::size_t dynamicSharedBytes,
                        const LaunchOptions &options) {
  auto reject = [&](const std::string &why) {
    throw CpuLaunchError("cannot launch kernel '" + kernel.name +
                         "' with grid " + formatDim3(grid) + " and block " +
                         formatDim3(block) + ": " + why);
  };
  if (!kernel.entry)
    reject("the kernel has no entry point");
  if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
    reject("every dimension must be at least 1");
  if (grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535)
    reject("the grid exceeds CUDA's limits (2^31-1, 65535, 65535)");
  if (block.x > 1024 || block.y > 1024 || block.z > 64 ||
      std::uint64_t(block.x) * block.y * block.z > 1024)
    reject("a block has at most 1024 threads (x, y <= 1024, z <= 64)");
  if (dynamicSharedBytes > SharedArena::kTotalLimit)
    reject(std::to_string(dynamicSharedBytes) +
           " bytes of dynamic shared memory exceed the limit of " +
           std::to_string(SharedArena::kTotalLimit));
  if (options.clusterSize < 1 || options.clusterSize > kMaxClusterSize)
    reject("a cluster has 1 to " + std::to_string(kMaxClusterSize) +
           " blocks, got " + std::to_string(options.clusterSize));
  if (grid.x % options.clusterSize != 0)
    reject("grid.x must be a multiple of the cluster size " +
           std::to_string(options.clusterSize));
  if (options.stackBytes < kMinStackBytes)
    reject("fiber stacks need at least " + std::to_string(kMinStackBytes) +
           " bytes");
}

/// What the host threads of one launch share: the clusters (of one block,
/// without clusters) to run.
class BlockQueue {
public:
  explicit BlockQueue(std::uint64_t count) : count(count) {}

  /// The next cluster to run, or false when there is none or one failed.
  bool take(std::uint64_t &block) {
    if (failed.load(std::memory_order_relaxed))
      return false;
    block = next.fetch_add(1, std::memory_order_relaxed);
    return block < count;
  }

  void fail(std::uint64_t block, std::string message) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!failed.load(std::memory_order_relaxed) || block < failedBlock) {
      failedBlock = block;
      error = std::move(message);
    }
    failed.store(true, std::memory_order_relaxed);
  }

  /// Throws the recorded failure, if any; call after every thread is done.
  void rethrow() const {
    if (failed.load(std::memory_order_relaxed))
      throw CpuLaunchError(error);
  }

private:
  const std::uint64_t count;
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::uint64_t failedBlock = 0;
  std::string error;
};

void runBlocks(const LaunchConfig &config, BlockQueue &queue) {
  std::uint64_t cluster = 0;
  try {
    ClusterRunner runner(config);
    while (queue.take(cluster)) {
      std::string error = runner.run(cluster);
      if (!error.empty())
        queue.fail(cluster, std::move(error));
    }
  } catch (const std::exception &e) {
    queue.fail(cluster, "kernel '" + config.kernelName +
                            "': the CPU executor failed: " + e.what());
  }
}

} // namespace

void normc::cpu::launch(const CpuKernel &kernel, Dim3 grid, Dim3 block,
                        std::size_t dynamicSharedBytes, void **args,
                        const LaunchOptions &options) {
  checkConfiguration(kernel, grid, block, dynamicSharedBytes, options);
  LaunchConfig config{kernel.name, kernel.entry,       args,   grid,
                      block,       dynamicSharedBytes, options};
  std::uint64_t clusters =
      std::uint64_t(grid.x) * grid.y * grid.z / options.clusterSize;
  unsigned hostThreads =
      options.hostThreads ? options.hostThreads
                          : std::max(1u, std::thread::hardware_concurrency());
  std::uint64_t workers = std::min<std::uint64_t>(hostThreads, clusters);

  BlockQueue queue(clusters);
  std::vector<std::thread> helpers;
  try {
    for (std::uint64_t i = 1; i < workers; ++i)
      helpers.emplace_back(runBlocks, std::cref(config), std::ref(queue));
  } catch (const std::system_error &) {
    // Fewer host threads than asked for only costs time.
  }
  runBlocks(config, queue);
  for (std::thread &helper : helpers)
    helper.join();
  queue.rethrow();
}
