//===- ConcurrentProcessesTest.cpp - Two processes sharing one directory --===//
//
// Two processes started at the same moment put and get the same keys and
// their own keys, hundreds of times, with payloads of 0 bytes to 1 MiB.
// Every get that hits must return a whole entry of the right payload, a
// put must be visible to the next get, and afterwards the directory must
// hold exactly one valid entry per key and no temporary files.
//
//===----------------------------------------------------------------------===//

#include "CacheTestUtil.h"

#include <set>

using namespace normc::cache;
using namespace normc::cache::test;

namespace {

constexpr int kShared = 8; // keys 0..7, written by both processes
constexpr int kOwn = 4;    // then 4 keys per process
constexpr int kIterations = 300;
constexpr int kKeys = kShared + 2 * kOwn;

/// One process's work; its exit status: 0, or what went wrong.
int exercise(const DiskCache &cache, int id,
             const std::vector<std::string> &keys,
             const std::vector<std::string> &payloads) {
  for (int i = 0; i < kIterations; ++i) {
    int k = i % 2 ? (i / 2 * 7 + id) % kShared
                  : kShared + kOwn * id + (i / 2) % kOwn;
    if (!cache.put(keys[k], payloads[k]))
      return 1;
    std::optional<std::string> mine = cache.get(keys[k]);
    if (!mine)
      return 2; // entries are only ever replaced, never removed
    if (*mine != payloads[k])
      return 3;
    // Now and then some other key, which the other process may be
    // replacing right now.
    int probe = (i * 5 + 3 * id) % kKeys;
    if (i % 2 == 0)
      continue;
    std::optional<std::string> any = cache.get(keys[probe]);
    if (any && *any != payloads[probe])
      return 4;
  }
  return 0;
}

} // namespace

using CacheProcesses = CacheTest;

TEST_F(CacheProcesses, TwoProcessesShareADirectory) {
  const size_t sizes[kShared] = {0,     1,      47,     4096,
                                 65536, 150000, 400000, 1 << 20};
  std::vector<std::string> keys, payloads;
  for (int k = 0; k < kKeys; ++k) {
    keys.push_back(sha256Hex("kernel " + std::to_string(k)));
    payloads.push_back(patternBytes(sizes[k % kShared], k));
  }

  // Both children block on the pipe until the parent closes it.
  int start[2];
  ASSERT_EQ(pipe(start), 0);
  DiskCache cache(dir);
  pid_t children[2];
  for (int id = 0; id < 2; ++id)
    children[id] = startChild([&] {
      close(start[1]);
      char byte;
      if (read(start[0], &byte, 1) != 0)
        return 10;
      return exercise(cache, id, keys, payloads);
    });
  close(start[0]);
  close(start[1]);
  for (pid_t child : children)
    EXPECT_EQ(waitForChild(child), 0);

  std::set<std::string> expected;
  for (const std::string &key : keys)
    expected.insert("cuda/" + key.substr(0, 2) + "/" + key + ".bin");
  std::vector<std::string> files = filesUnder(dir);
  EXPECT_EQ(std::set<std::string>(files.begin(), files.end()), expected);
  for (int k = 0; k < kKeys; ++k)
    EXPECT_EQ(cache.get(keys[k]), payloads[k]) << k;
}
