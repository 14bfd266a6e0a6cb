//===- BlockRunner.cpp - Runs thread blocks as fibers on one host thread --===//

#include "BlockRunner.h"

#include "AsanFiber.h"
#include "ClusterRunner.h"
#include "Diagnostics.h"
#include "StackPool.h"

#include <boost/context/preallocated.hpp>

#include <algorithm>
#include <cstring>
#include <map>

using namespace normc::cpu;
using boost::context::fiber;

namespace {

/// Thrown inside a fiber to unwind a kernel whose block failed. Not a
/// std::exception, so that nothing but the fiber's own frame catches it.
struct FiberAbort {};

Dim3 unlinearize(std::uint64_t index, Dim3 extent) {
  Dim3 d;
  d.x = static_cast<unsigned>(index % extent.x);
  index /= extent.x;
  d.y = static_cast<unsigned>(index % extent.y);
  d.z = static_cast<unsigned>(index / extent.y);
  return d;
}

unsigned countOf(Dim3 d) { return d.x * d.y * d.z; }

} // namespace

BlockRunner::BlockRunner(const LaunchConfig &config, ClusterRunner &cluster,
                         unsigned rank)
    : config(config), cluster(cluster), clusterRank(rank),
      threadCount(countOf(config.block)), threads(threadCount),
      warps((threadCount + kWarpSize - 1) / kWarpSize),
      arena(config.dynamicSharedBytes), ready(threadCount),
      scratch(threadCount) {
  PooledStackAllocator allocator(config.options.stackBytes);
  for (unsigned tid = 0; tid < threadCount; ++tid) {
    FiberThread &t = threads[tid];
    t.runner = this;
    t.tid = tid;
    t.ctx.threadIdx = unlinearize(tid, config.block);
    t.ctx.blockDim = config.block;
    t.ctx.gridDim = config.grid;
    boost::context::stack_context stack = allocator.allocate();
    t.stackBottom = static_cast<char *>(stack.sp) - stack.size;
    t.stackSize = stack.size;
    t.context = fiber(std::allocator_arg,
                      boost::context::preallocated(stack.sp, stack.size, stack),
                      allocator, [this, &t](fiber &&scheduler) {
                        return fiberMain(t, std::move(scheduler));
                      });
  }
}

BlockRunner::~BlockRunner() {
  // Let every fiber return, so that its stack goes back to the pool.
  quitting = aborting = true;
  for (FiberThread &t : threads)
    while (t.context)
      resume(t);
}

//===----------------------------------------------------------------------===//
// Fibers and switching
//===----------------------------------------------------------------------===//

fiber BlockRunner::fiberMain(FiberThread &self, fiber &&scheduler) {
  self.scheduler = std::move(scheduler);
  finishSwitchFiber(nullptr, &schedulerStackBottom, &schedulerStackSize);
  // One kernel run per block; parked in between.
  while (!quitting) {
    runKernel(self);
    self.state = FiberThread::State::Exited;
    ++exited;
    switchToScheduler(self);
  }
  startSwitchFiber(nullptr, schedulerStackBottom, schedulerStackSize);
  return std::move(self.scheduler);
}

void BlockRunner::runKernel(FiberThread &self) {
  try {
    config.entry(config.args);
    if (!self.pendingCopies.empty())
      fail(self, "exited with " + std::to_string(self.pendingCopies.size()) +
                     " asynchronous copies never waited for, the first at " +
                     formatSite(self.pendingCopies.front().site) +
                     " (a missing normc_async_wait)");
  } catch (const FiberAbort &) {
    // The block failed; the error is already recorded.
  } catch (const std::exception &e) {
    if (error.empty())
      error = threadName(self) + " threw: " + e.what();
  } catch (...) {
    if (error.empty())
      error = threadName(self) + " threw an exception";
  }
}

void BlockRunner::resume(FiberThread &thread) {
  gCurrentThread = &thread;
  void *fakeStack = nullptr;
  startSwitchFiber(&fakeStack, thread.stackBottom, thread.stackSize);
  thread.context = std::move(thread.context).resume();
  finishSwitchFiber(fakeStack, nullptr, nullptr);
  gCurrentThread = nullptr;
}

void BlockRunner::switchToScheduler(FiberThread &self) {
  startSwitchFiber(&self.fakeStack, schedulerStackBottom, schedulerStackSize);
  self.scheduler = std::move(self.scheduler).resume();
  finishSwitchFiber(self.fakeStack, &schedulerStackBottom, &schedulerStackSize);
}

void BlockRunner::suspend(FiberThread &self) {
  switchToScheduler(self);
  if (aborting)
    throw FiberAbort();
}

//===----------------------------------------------------------------------===//
// Scheduling a block
//===----------------------------------------------------------------------===//

std::uint64_t BlockRunner::nextRandom() {
  // splitmix64: tiny state, good enough to shuffle lanes.
  std::uint64_t z = (randomState += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void BlockRunner::makeReady(unsigned *tids, unsigned count, bool collective) {
  switch (config.options.laneOrder) {
  case LaneOrder::Forward:
    break;
  case LaneOrder::RunAhead:
    if (collective) { // ahead of every waiting thread, in lane order
      for (unsigned i = count; i-- > 0;) {
        readyHead = readyHead == 0 ? threadCount - 1 : readyHead - 1;
        threads[tids[i]].state = FiberThread::State::Ready;
        ready[readyHead] = tids[i];
      }
      readySize += count;
      return;
    }
    break;
  case LaneOrder::Reverse:
    std::reverse(tids, tids + count);
    break;
  case LaneOrder::Random:
    for (unsigned i = count; i > 1; --i)
      std::swap(tids[i - 1], tids[nextRandom() % i]);
    break;
  }
  unsigned slot = readyHead + readySize;
  for (unsigned i = 0; i < count; ++i, ++slot) {
    if (slot >= threadCount)
      slot -= threadCount;
    threads[tids[i]].state = FiberThread::State::Ready;
    ready[slot] = tids[i];
  }
  readySize += count;
}

void BlockRunner::begin(std::uint64_t block) {
  blockIdx = unlinearize(block, config.grid);
  for (FiberThread &t : threads) {
    t.ctx.blockIdx = blockIdx;
    t.started = false;
    t.shared = SharedCursor();
    t.pendingCopies.clear();
  }
  for (WarpRendezvous &w : warps)
    w.reset();
  arena.startBlock();
  exited = 0;
  barrierArrived = clusterArrived = 0;
  error.clear();
  randomState = config.options.seed ^ (block * 0xd1b54a32d192ed03ull);
  readyHead = readySize = 0;
  for (unsigned tid = 0; tid < threadCount; ++tid)
    scratch[tid] = tid;
  makeReady(scratch.data(), threadCount);
}

void BlockRunner::step() {
  while (readySize && error.empty()) {
    FiberThread &t = threads[ready[readyHead]];
    readyHead = readyHead + 1 == threadCount ? 0 : readyHead + 1;
    --readySize;
    t.started = true;
    resume(t);
  }
  // Another block of the cluster may still read this one's shared memory
  // by mistake: it reads NaN, as if the memory were gone.
  if (done() && cluster.size() > 1)
    arena.startBlock();
}

void BlockRunner::releaseClusterBarrier() {
  clusterArrived = 0;
  for (unsigned tid = 0; tid < threadCount; ++tid)
    scratch[tid] = tid;
  makeReady(scratch.data(), threadCount);
}

void BlockRunner::setDeadlock(const std::string &why) {
  if (error.empty())
    error = deadlockReport() + why;
}

std::string BlockRunner::finish() {
  if (!done())
    abortBlock(); // failed, or another block of its cluster did
  if (error.empty())
    return error;
  return "kernel '" + config.kernelName + "', block " + formatDim3(blockIdx) +
         ": " + error;
}

void BlockRunner::abortBlock() {
  aborting = true;
  for (FiberThread &t : threads) {
    if (!t.started)
      continue; // still parked before the kernel: nothing to unwind
    while (t.state != FiberThread::State::Exited)
      resume(t);
  }
  aborting = false;
}

//===----------------------------------------------------------------------===//
// Barriers, collectives and shared memory
//===----------------------------------------------------------------------===//

void BlockRunner::syncThreads(FiberThread &self, Site site) {
  if (barrierArrived == 0) {
    barrierSite = site;
  } else if (!sameSite(site, barrierSite)) {
    std::vector<unsigned> waiting;
    for (const FiberThread &t : threads)
      if (t.state == FiberThread::State::AtBarrier)
        waiting.push_back(t.tid);
    fail(self, "reached __syncthreads() at " + formatSite(site) +
                   " while threads " + formatRanges(waiting) +
                   " wait at __syncthreads() at " + formatSite(barrierSite) +
                   " (a barrier in divergent code)");
  }
  self.state = FiberThread::State::AtBarrier;
  self.waitSite = site;
  if (++barrierArrived == threadCount) {
    barrierArrived = 0;
    for (unsigned tid = 0; tid < threadCount; ++tid)
      scratch[tid] = tid;
    makeReady(scratch.data(), threadCount);
  }
  suspend(self);
}

void BlockRunner::clusterSync(FiberThread &self, Site site) {
  if (clusterArrived == 0) {
    clusterSite = site;
  } else if (!sameSite(site, clusterSite)) {
    fail(self, "reached the cluster barrier at " + formatSite(site) +
                   " while other threads of its block wait at the cluster "
                   "barrier at " +
                   formatSite(clusterSite) + " (a barrier in divergent code)");
  }
  self.state = FiberThread::State::AtClusterBarrier;
  self.waitSite = site;
  ++clusterArrived; // ClusterRunner releases every block at once
  suspend(self);
}

void *BlockRunner::clusterShared(FiberThread &self, const void *address,
                                 unsigned rank, Site site) {
  std::string where = " at " + formatSite(site);
  if (rank >= cluster.size())
    fail(self, "asked for the shared memory of block " + std::to_string(rank) +
                   " of a cluster of " + std::to_string(cluster.size()) +
                   where);
  bool dynamic = false;
  std::size_t offset = 0;
  if (!arena.locate(address, dynamic, offset))
    fail(self, "asked for another block's copy of an address that is not "
               "its own block's shared memory" +
                   where);
  BlockRunner &other = cluster.block(rank);
  if (other.done())
    fail(self, "asked for the shared memory of block " + std::to_string(rank) +
                   " of its cluster, which has exited" + where +
                   " (a missing cluster barrier before the block's end)");
  return other.arena.at(dynamic, offset);
}

// The copy lands when the thread waits: a read of `dst` before then sees
// what was there (0xFF bytes, NaN, in a fresh block), as a read that races
// with cp.async may on the GPU.
void BlockRunner::asyncCopy(FiberThread &self, void *dst, const void *src,
                            std::size_t bytes, Site site) {
  bool dynamic = false;
  std::size_t offset = 0;
  if (!arena.locate(dst, dynamic, offset) ||
      !arena.locate(static_cast<unsigned char *>(dst) + bytes - 1, dynamic,
                    offset))
    fail(self, "made an asynchronous copy to memory that is not its block's "
               "shared memory at " +
                   formatSite(site));
  self.pendingCopies.push_back({dst, src, bytes, site});
}

void BlockRunner::asyncWait(FiberThread &self) {
  for (const PendingCopy &copy : self.pendingCopies)
    std::memcpy(copy.dst, copy.src, copy.bytes);
  self.pendingCopies.clear();
}

unsigned long long BlockRunner::warpOp(FiberThread &self, WarpOp op,
                                       unsigned mask, unsigned long long value,
                                       int arg, int width, Site site) {
  unsigned lane = self.tid % kWarpSize, warp = self.tid / kWarpSize;
  auto call = [&] {
    return "called " + std::string(warpOpName(op)) + " at " + formatSite(site) +
           " with mask " + formatMask(mask);
  };
  if (!(mask >> lane & 1))
    fail(self,
         call() + ", which leaves out its own lane " + std::to_string(lane));
  if (width < 1 || width > static_cast<int>(kWarpSize) || (width & (width - 1)))
    fail(self, call() + " and width " + std::to_string(width) +
                   " (must be a power of two from 1 to 32)");
  unsigned lanesInWarp = std::min(kWarpSize, threadCount - warp * kWarpSize);
  unsigned existing = lanesInWarp == kWarpSize ? ~0u : (1u << lanesInWarp) - 1;
  if (mask & ~existing) {
    std::vector<unsigned> missing;
    for (unsigned l = lanesInWarp; l < kWarpSize; ++l)
      if (mask >> l & 1)
        missing.push_back(l);
    fail(self, call() + ", which names lanes " + formatRanges(missing) +
                   " that do not exist in a block of " +
                   std::to_string(threadCount) + " threads");
  }

  WarpRendezvous &w = warps[warp];
  const WarpRendezvous::Group *conflict = nullptr;
  unsigned completed =
      w.arrive(lane, WarpArrival{op, mask, value, arg, width}, conflict);
  if (conflict) {
    std::vector<unsigned> lanes;
    Site where{};
    for (unsigned l = 0; l < kWarpSize; ++l)
      if (conflict->arrived >> l & 1) {
        lanes.push_back(l);
        where = threads[warp * kWarpSize + l].waitSite;
      }
    fail(self, call() + " while lanes " + formatRanges(lanes) +
                   " of its warp wait at " + warpOpName(conflict->op) + " at " +
                   formatSite(where) + " with mask " +
                   formatMask(conflict->mask) +
                   " (every lane of a mask must call the same collective "
                   "with the same mask)");
  }
  self.state = FiberThread::State::AtWarpOp;
  self.waitSite = site;
  self.waitOp = op;
  if (completed) {
    unsigned count = 0;
    for (unsigned l = 0; l < kWarpSize; ++l)
      if (completed >> l & 1)
        scratch[count++] = warp * kWarpSize + l;
    makeReady(scratch.data(), count, /*collective=*/true);
  }
  suspend(self);
  return w.result(lane);
}

void *BlockRunner::staticShared(FiberThread &self, std::size_t bytes,
                                std::size_t align, Site site) {
  std::string problem;
  void *address = arena.allocate(self.shared, bytes, align, site, problem);
  if (!address)
    fail(self, problem);
  return address;
}

void BlockRunner::fail(FiberThread &self, const std::string &message) {
  if (error.empty())
    error = threadName(self) + " " + message;
  suspend(self); // the scheduler sees the error and unwinds every thread
  throw FiberAbort();
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

std::string BlockRunner::threadName(const FiberThread &thread) const {
  return "thread " + std::to_string(thread.tid) + " (warp " +
         std::to_string(thread.tid / kWarpSize) + ", lane " +
         std::to_string(thread.tid % kWarpSize) + ")";
}

std::string BlockRunner::describeThreads(const std::vector<unsigned> &tids) {
  // Group the threads by what they are doing instead.
  std::map<std::string, std::vector<unsigned>> byActivity;
  for (unsigned tid : tids) {
    const FiberThread &t = threads[tid];
    std::string activity;
    switch (t.state) {
    case FiberThread::State::Exited:
      activity = "exited";
      break;
    case FiberThread::State::AtBarrier:
      activity = "wait at __syncthreads() at " + formatSite(t.waitSite);
      break;
    case FiberThread::State::AtWarpOp:
      activity = std::string("wait at ") + warpOpName(t.waitOp) + " at " +
                 formatSite(t.waitSite);
      break;
    case FiberThread::State::AtClusterBarrier:
      activity = "wait at the cluster barrier at " + formatSite(t.waitSite);
      break;
    case FiberThread::State::Ready:
      activity = "are runnable";
      break;
    }
    byActivity[activity].push_back(tid);
  }
  std::string text;
  for (const auto &[activity, ids] : byActivity)
    text += (text.empty() ? "" : "; ") + std::string("threads ") +
            formatRanges(ids) + " " + activity;
  return text;
}

std::string BlockRunner::deadlockReport() {
  std::string report = "deadlock:";
  if (barrierArrived) {
    std::vector<unsigned> arrived, missing;
    for (const FiberThread &t : threads)
      (t.state == FiberThread::State::AtBarrier ? arrived : missing)
          .push_back(t.tid);
    report += "\n  __syncthreads() at " + formatSite(barrierSite) +
              " was reached by threads " + formatRanges(arrived) +
              " but not by threads " + formatRanges(missing) + ": " +
              describeThreads(missing);
  }
  if (clusterArrived && clusterArrived < threadCount) {
    std::vector<unsigned> arrived, missing;
    for (const FiberThread &t : threads)
      (t.state == FiberThread::State::AtClusterBarrier ? arrived : missing)
          .push_back(t.tid);
    report += "\n  the cluster barrier at " + formatSite(clusterSite) +
              " was reached by threads " + formatRanges(arrived) +
              " but not by threads " + formatRanges(missing) + ": " +
              describeThreads(missing);
  }
  for (unsigned warp = 0; warp < warps.size(); ++warp) {
    for (const WarpRendezvous::Group &g : warps[warp]) {
      std::vector<unsigned> arrived, missing, missingTids;
      Site where{};
      for (unsigned l = 0; l < kWarpSize; ++l) {
        if (g.arrived >> l & 1) {
          arrived.push_back(l);
          where = threads[warp * kWarpSize + l].waitSite;
        } else if (g.mask >> l & 1) {
          missing.push_back(l);
          missingTids.push_back(warp * kWarpSize + l);
        }
      }
      report += "\n  " + std::string(warpOpName(g.op)) + " at " +
                formatSite(where) + " with mask " + formatMask(g.mask) +
                " in warp " + std::to_string(warp) + " was reached by lanes " +
                formatRanges(arrived) + " but not by lanes " +
                formatRanges(missing) + ": " + describeThreads(missingTids);
    }
  }
  return report;
}
