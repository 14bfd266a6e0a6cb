//===- ClearCacheTest.cpp - clearCache removes entries and nothing else ---===//
//
// A cache root may be set to a folder that holds other files; clearing it
// must remove the caches' entries (and the temporary files of interrupted
// writes) of every namespace, and leave every other file, every link and
// what links point to.
//
//===----------------------------------------------------------------------===//

#include "CacheTestUtil.h"

#include <fstream>

using namespace normc::cache;
using namespace normc::cache::test;
namespace fs = std::filesystem;

using ClearCacheTest = CacheTest;

TEST_F(ClearCacheTest, RemovesEveryEntryOfEveryNamespace) {
  std::vector<std::string> keys;
  for (const char *ns : {"cuda", "tuning", "cpu"})
    for (int i = 0; i < 3; ++i) {
      std::string key = sha256Hex(std::string(ns) + std::to_string(i));
      ASSERT_TRUE(DiskCache(dir, ns).put(key, patternBytes(100, i)));
      keys.push_back(key);
    }
  // A write that never finished: its temporary file beside the entry.
  std::string shard = dir + "/cuda/" + keys[0].substr(0, 2);
  std::ofstream(shard + "/." + keys[0] + ".bin.123-1-456.tmp") << "half";
  ClearedEntries cleared = clearCache(dir);
  EXPECT_EQ(cleared.files, 10);
  EXPECT_EQ(cleared.bytes, 9 * (48 + 100) + 4);
  EXPECT_TRUE(filesUnder(dir).empty());
  EXPECT_FALSE(fs::exists(shard)); // emptied folders go too
  for (size_t i = 0; i < keys.size(); ++i)
    EXPECT_EQ(DiskCache(dir, i < 3   ? "cuda"
                             : i < 6 ? "tuning"
                                     : "cpu")
                  .get(keys[i]),
              std::nullopt);
  EXPECT_EQ(clearCache(dir).files, 0); // nothing left to remove
}

TEST_F(ClearCacheTest, LeavesWhatIsNotAnEntry) {
  std::string key = sha256Hex("kernel");
  DiskCache cache(dir, "cuda");
  ASSERT_TRUE(cache.put(key, "payload"));
  std::string shard = fs::path(cache.pathFor(key)).parent_path();
  // A root set to a folder of other things: files beside the namespaces,
  // in them, and in a shard; folders that are no shards; a link to a
  // folder outside, with an entry-named file behind it.
  std::ofstream(dir + "/notes.txt") << "mine";
  std::ofstream(dir + "/cuda/README") << "mine";
  std::ofstream(shard + "/keep.txt") << "mine";
  std::ofstream(shard + "/" + key + ".bin.bak") << "mine";
  fs::create_directories(dir + "/src/zz");
  std::ofstream(dir + "/src/zz/" + key + ".bin") << "mine";
  fs::path outside = dir + "/../" + fs::path(dir).filename().string() + "-out";
  fs::create_directories(outside / "ab");
  std::ofstream(outside / "ab" / (key + ".bin")) << "mine";
  fs::create_directory_symlink(outside, dir + "/linked");
  fs::create_directory_symlink(outside / "ab", dir + "/cuda/ab");

  EXPECT_EQ(clearCache(dir).files, 1);
  EXPECT_FALSE(fs::exists(cache.pathFor(key)));
  for (const std::string &kept :
       {dir + "/notes.txt", dir + "/cuda/README", shard + "/keep.txt",
        shard + "/" + key + ".bin.bak", dir + "/src/zz/" + key + ".bin"})
    EXPECT_TRUE(fs::exists(kept)) << kept;
  EXPECT_TRUE(fs::exists(outside / "ab" / (key + ".bin")));
  fs::remove_all(outside);
}

TEST_F(ClearCacheTest, AMissingRootIsNothingToClear) {
  EXPECT_EQ(clearCache(dir + "/none").files, 0);
  std::ofstream(dir + "/file") << "x";
  EXPECT_EQ(clearCache(dir + "/file").files, 0);
  EXPECT_TRUE(fs::exists(dir + "/file"));
}
