//===- TwoLevelCacheTest.cpp - The in-memory level in front of the disk ---===//
//
// Memory is consulted first and shares payloads without copying them; disk
// hits are remembered; a failed disk write still leaves the payload in
// memory; several threads may use one cache at once.
//
//===----------------------------------------------------------------------===//

#include "CacheTestUtil.h"

#include <filesystem>
#include <fstream>
#include <thread>

using namespace normc::cache;
using namespace normc::cache::test;
namespace fs = std::filesystem;

using TwoLevelCacheTest = CacheTest;

TEST_F(TwoLevelCacheTest, Miss) {
  TwoLevelCache cache{DiskCache(dir)};
  EXPECT_EQ(cache.get(sha256Hex("k")), nullptr);
}

TEST_F(TwoLevelCacheTest, PutWritesBothLevels) {
  std::string key = sha256Hex("k");
  TwoLevelCache cache{DiskCache(dir)};
  ASSERT_TRUE(cache.put(key, "payload"));
  EXPECT_EQ(DiskCache(dir).get(key), "payload");
  fs::remove(cache.disk().pathFor(key));
  auto payload = cache.get(key);
  ASSERT_NE(payload, nullptr);
  EXPECT_EQ(*payload, "payload");
  // A new process starts with empty memory.
  EXPECT_EQ(TwoLevelCache{DiskCache(dir)}.get(key), nullptr);
}

TEST_F(TwoLevelCacheTest, DiskHitIsRememberedAndShared) {
  std::string key = sha256Hex("k");
  ASSERT_TRUE(DiskCache(dir).put(key, "from disk"));
  TwoLevelCache cache{DiskCache(dir)};
  auto first = cache.get(key);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(*first, "from disk");
  fs::remove(cache.disk().pathFor(key));
  EXPECT_EQ(cache.get(key), first); // the same string, not a copy
}

TEST_F(TwoLevelCacheTest, FailedDiskWriteKeepsMemory) {
  std::ofstream(dir + "/file") << "not a folder";
  TwoLevelCache cache{DiskCache(dir + "/file")};
  std::string key = sha256Hex("k");
  EXPECT_FALSE(cache.put(key, "payload"));
  auto payload = cache.get(key);
  ASSERT_NE(payload, nullptr);
  EXPECT_EQ(*payload, "payload");
}

TEST_F(TwoLevelCacheTest, TwoThreads) {
  constexpr int kKeys = 12; // 0..3 shared, then 4 per thread
  std::vector<std::string> keys, payloads;
  for (int k = 0; k < kKeys; ++k) {
    keys.push_back(sha256Hex("kernel " + std::to_string(k)));
    payloads.push_back(patternBytes(k % 3 == 0 ? 65536 : 100 + k, k));
  }
  TwoLevelCache cache{DiskCache(dir)};
  int failures[2] = {0, 0};
  auto work = [&](int id) {
    for (int i = 0; i < 2000; ++i) {
      int k = i % 2 ? i / 2 % 4 : 4 + 4 * id + i / 2 % 4;
      if (i < 16 || i % 16 < 2) // every key, then a put now and then
        cache.put(keys[k], payloads[k]);
      auto got = cache.get(keys[(i * 7 + id) % kKeys]);
      if (got && *got != payloads[(i * 7 + id) % kKeys])
        ++failures[id];
    }
  };
  std::thread other(work, 1);
  work(0);
  other.join();
  EXPECT_EQ(failures[0] + failures[1], 0);
  for (int k = 0; k < kKeys; ++k) {
    auto payload = cache.get(keys[k]);
    ASSERT_NE(payload, nullptr) << k;
    EXPECT_EQ(*payload, payloads[k]);
    EXPECT_EQ(DiskCache(dir).get(keys[k]), payloads[k]);
  }
}

// A memory hit neither reads the disk nor copies the payload (its cost is
// measured in bench/RuntimeBench.cpp, not here).
TEST_F(TwoLevelCacheTest, MemoryHitNeedsNoDiskAndNoCopy) {
  TwoLevelCache cache{DiskCache(dir)};
  std::string key = sha256Hex("k");
  cache.put(key, patternBytes(1 << 20, 1));
  std::filesystem::remove(cache.disk().pathFor(key));
  std::shared_ptr<const std::string> first = cache.get(key);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->size(), size_t(1) << 20);
  EXPECT_EQ(cache.get(key).get(), first.get());
}
