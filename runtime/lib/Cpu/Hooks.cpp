//===- Hooks.cpp - The executor's entry points for kernel code ------------===//
//
// Kernel code calls these through the Hooks table; each finds the CUDA
// thread running on this host thread and forwards to its BlockRunner.
//
//===----------------------------------------------------------------------===//

#include "Hooks.h"

#include <cstdio>

#include "BlockRunner.h"
#include "Diagnostics.h"

using namespace normc::cpu;

namespace {

FiberThread &self() {
  FiberThread *thread = gCurrentThread;
  if (!thread)
    throw CpuLaunchError("CUDA device code ran outside normc::cpu::launch");
  return *thread;
}

const ThreadCtx *current() { return &self().ctx; }

void syncThreads(Site site) {
  FiberThread &t = self();
  t.runner->syncThreads(t, site);
}

unsigned long long warpOp(WarpOp op, unsigned mask, unsigned long long value,
                          int arg, int width, Site site) {
  FiberThread &t = self();
  return t.runner->warpOp(t, op, mask, value, arg, width, site);
}

void *staticShared(std::size_t bytes, std::size_t align, Site site) {
  FiberThread &t = self();
  return t.runner->staticShared(t, bytes, align, site);
}

void *dynamicShared() { return self().runner->dynamicShared(); }

void trap(Site site) {
  FiberThread &t = self();
  t.runner->fail(t, "called __trap() at " + formatSite(site));
}

void misaligned(const void *address, std::size_t bytes, Site site) {
  FiberThread &t = self();
  char where[32];
  std::snprintf(where, sizeof(where), "%p", address);
  t.runner->fail(t, "made a misaligned " + std::to_string(bytes) +
                        "-byte vector access at " + where + " at " +
                        formatSite(site) +
                        " (a CUDA GPU faults: misaligned address)");
}

unsigned clusterRank() { return self().runner->rank(); }

void clusterSync(Site site) {
  FiberThread &t = self();
  t.runner->clusterSync(t, site);
}

void *clusterShared(const void *address, unsigned rank, Site site) {
  FiberThread &t = self();
  return t.runner->clusterShared(t, address, rank, site);
}

void asyncCopy(void *dst, const void *src, std::size_t bytes, Site site) {
  FiberThread &t = self();
  t.runner->asyncCopy(t, dst, src, bytes, site);
}

void asyncWait(Site) { self().runner->asyncWait(self()); }

} // namespace

const Hooks &normc::cpu::executorHooks() {
  static constexpr Hooks hooks{current,       syncThreads,   warpOp,
                               staticShared,  dynamicShared, trap,
                               misaligned,    clusterRank,   clusterSync,
                               clusterShared, asyncCopy,     asyncWait};
  return hooks;
}
