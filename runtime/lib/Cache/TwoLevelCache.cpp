//===- TwoLevelCache.cpp - A per-process map in front of a DiskCache ------===//
//
// The lock is never held during disk I/O: memory hits in other threads do
// not wait for a disk read or write. Two threads that miss on the same key
// may both read it from disk; the first to return keeps its payload.
//
//===----------------------------------------------------------------------===//

#include "normc/Runtime/Cache/DiskCache.h"

#include <mutex>

using namespace normc::cache;

TwoLevelCache::TwoLevelCache(DiskCache disk) : diskCache(std::move(disk)) {}

std::shared_ptr<const std::string>
TwoLevelCache::get(const std::string &key) const {
  {
    std::shared_lock<std::shared_mutex> lock(mutex);
    auto found = memory.find(key);
    if (found != memory.end())
      return found->second;
  }
  std::optional<std::string> payload = diskCache.get(key);
  if (!payload)
    return nullptr;
  auto loaded = std::make_shared<const std::string>(std::move(*payload));
  std::unique_lock<std::shared_mutex> lock(mutex);
  // A put since the disk read wins over what was read.
  return memory.emplace(key, std::move(loaded)).first->second;
}

bool TwoLevelCache::put(const std::string &key, std::string payload) {
  auto stored = std::make_shared<const std::string>(std::move(payload));
  bool written = diskCache.put(key, *stored);
  std::unique_lock<std::shared_mutex> lock(mutex);
  memory[key] = std::move(stored);
  return written;
}
