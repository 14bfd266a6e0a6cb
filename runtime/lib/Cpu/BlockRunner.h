//===- BlockRunner.h - Runs thread blocks as fibers on one host thread ----===//
//
// A BlockRunner belongs to one host thread of a launch and runs the blocks
// that thread takes, one at a time. Each CUDA thread of a block is a fiber;
// the fibers (and their stacks) are made once per runner and reused for
// every block. The scheduler is cooperative: a fiber runs until it waits
// at a barrier or warp collective, or exits. When the last participant
// arrives the waiters become ready again, queued in the launch's lane
// order. When nothing is ready but some threads have not exited, the block
// waits at its cluster's barrier (ClusterRunner releases it) or is
// deadlocked, and the runner reports who waits where and who is missing.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_CPU_BLOCKRUNNER_H
#define NORMC_RUNTIME_CPU_BLOCKRUNNER_H

#include "SharedArena.h"
#include "WarpRendezvous.h"

#include "normc/Runtime/Cpu/CpuDevice.h"

#include <boost/context/fiber.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace normc {
namespace cpu {

/// What every host thread of a launch shares, read-only.
struct LaunchConfig {
  std::string kernelName;
  KernelEntry entry;
  void **args;
  Dim3 grid, block;
  std::size_t dynamicSharedBytes;
  LaunchOptions options;
};

class BlockRunner;
class ClusterRunner;

/// An asynchronous copy a thread started and has not waited for.
struct PendingCopy {
  void *dst;
  const void *src;
  std::size_t bytes;
  Site site;
};

/// One CUDA thread of the block being run.
struct FiberThread {
  enum class State : unsigned char {
    Ready,
    AtBarrier,
    AtWarpOp,
    AtClusterBarrier,
    Exited
  };

  ThreadCtx ctx;
  BlockRunner *runner = nullptr;
  unsigned tid = 0; // linear index in the block
  State state = State::Ready;
  bool started = false; // resumed at least once in this block
  Site waitSite{};      // of the barrier or collective it waits at
  WarpOp waitOp = WarpOp::Sync;
  SharedCursor shared;
  std::vector<PendingCopy> pendingCopies;

  boost::context::fiber context;   // this fiber, while suspended
  boost::context::fiber scheduler; // the scheduler, while this fiber runs
  const void *stackBottom = nullptr;
  std::size_t stackSize = 0;
  void *fakeStack = nullptr; // AddressSanitizer's, while suspended
};

/// The CUDA thread running on this host thread, if any.
inline thread_local FiberThread *gCurrentThread = nullptr;

class BlockRunner {
public:
  /// Makes the fibers of one block, the one of rank `rank` in `cluster`;
  /// throws std::bad_alloc and friends.
  BlockRunner(const LaunchConfig &config, ClusterRunner &cluster,
              unsigned rank);
  ~BlockRunner();
  BlockRunner(const BlockRunner &) = delete;
  BlockRunner &operator=(const BlockRunner &) = delete;

  /// Starts the block with linear index `block`: every thread is ready.
  void begin(std::uint64_t block);
  /// Runs ready threads until none is (or the block fails).
  void step();
  bool failed() const { return !error.empty(); }
  bool done() const { return exited == threadCount; }
  /// Whether every thread waits at the cluster barrier, and where.
  bool atClusterBarrier() const { return clusterArrived == threadCount; }
  Site clusterBarrierSite() const { return clusterSite; }
  /// Lets the threads waiting at the cluster barrier go on.
  void releaseClusterBarrier();
  /// Records why the block cannot go on, unless it failed already.
  void setDeadlock(const std::string &why = "");
  /// Unwinds the threads of a block that failed or did not finish (another
  /// block of its cluster failed); returns the error naming the
  /// kernel, block and threads, or "" when the block succeeded.
  std::string finish();
  unsigned rank() const { return clusterRank; }

  // The executor's side of the Hooks, called on the fiber `self`.
  void syncThreads(FiberThread &self, Site site);
  unsigned long long warpOp(FiberThread &self, WarpOp op, unsigned mask,
                            unsigned long long value, int arg, int width,
                            Site site);
  void *staticShared(FiberThread &self, std::size_t bytes, std::size_t align,
                     Site site);
  void *dynamicShared() { return arena.dynamicBase(); }
  void clusterSync(FiberThread &self, Site site);
  void *clusterShared(FiberThread &self, const void *address, unsigned rank,
                      Site site);
  void asyncCopy(FiberThread &self, void *dst, const void *src,
                 std::size_t bytes, Site site);
  void asyncWait(FiberThread &self);
  /// Fails the block with `message` about thread `self`; does not return.
  [[noreturn]] void fail(FiberThread &self, const std::string &message);

private:
  boost::context::fiber fiberMain(FiberThread &self,
                                  boost::context::fiber &&scheduler);
  void runKernel(FiberThread &self);
  void resume(FiberThread &thread);
  /// Back to the scheduler until resumed; throws FiberAbort if the block
  /// is being torn down meanwhile.
  void suspend(FiberThread &self);
  void switchToScheduler(FiberThread &self);
  /// Queues the threads `tids` (ascending) in the launch's lane order;
  /// `collective`: the lanes of a warp collective that just completed
  /// (LaneOrder::RunAhead puts them first).
  void makeReady(unsigned *tids, unsigned count, bool collective = false);
  void abortBlock();
  std::string deadlockReport();
  std::string describeThreads(const std::vector<unsigned> &tids);
  std::string threadName(const FiberThread &thread) const;
  std::uint64_t nextRandom();

  const LaunchConfig &config;
  ClusterRunner &cluster;
  const unsigned clusterRank;
  const unsigned threadCount;
  std::vector<FiberThread> threads;
  std::vector<WarpRendezvous> warps;
  SharedArena arena;

  // Ready threads, a ring of at most threadCount entries.
  std::vector<unsigned> ready;
  unsigned readyHead = 0, readySize = 0;
  std::vector<unsigned> scratch;

  unsigned exited = 0;
  unsigned barrierArrived = 0;
  Site barrierSite{};
  unsigned clusterArrived = 0;
  Site clusterSite{};
  Dim3 blockIdx{};
  std::string error;
  bool aborting = false, quitting = false;
  std::uint64_t randomState = 0;

  // The scheduler's stack, as AddressSanitizer reports it to the fibers.
  const void *schedulerStackBottom = nullptr;
  std::size_t schedulerStackSize = 0;
};

} // namespace cpu
} // namespace normc

#endif // NORMC_RUNTIME_CPU_BLOCKRUNNER_H
