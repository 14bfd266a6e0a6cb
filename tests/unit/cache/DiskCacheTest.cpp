//===- DiskCacheTest.cpp - Hits, misses, corruption and failing writes ----===//
//
// Entries are damaged on disk the ways crashes and bad disks do (truncated,
// extended, bytes flipped, another file's header) and must read as misses,
// be removed, and be rebuilt by the next put. Writes that cannot succeed
// (read-only folders, a full disk) return false and leave nothing behind.
//
//===----------------------------------------------------------------------===//

#include "CacheTestUtil.h"

#include <csignal>
#include <fstream>
#include <sys/resource.h>
#include <sys/stat.h>

using namespace normc::cache;
using namespace normc::cache::test;
namespace fs = std::filesystem;

namespace {

const std::string kKey = sha256Hex("a kernel");

std::string readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

} // namespace

using DiskCacheTest = CacheTest;

TEST_F(DiskCacheTest, MissInEmptyDirectory) {
  EXPECT_EQ(DiskCache(dir).get(kKey), std::nullopt);
}

TEST_F(DiskCacheTest, PutThenGet) {
  DiskCache cache(dir);
  for (size_t size : {0, 1, 47, 48, 49, 4096, 1 << 20}) {
    std::string key = sha256Hex(std::to_string(size));
    std::string payload = patternBytes(size, size);
    ASSERT_TRUE(cache.put(key, payload)) << size;
    EXPECT_EQ(fs::file_size(cache.pathFor(key)), 48 + size);
    EXPECT_EQ(cache.get(key), payload) << size;
    // Another instance, as another process would see it.
    EXPECT_EQ(DiskCache(dir).get(key), payload) << size;
  }
}

TEST_F(DiskCacheTest, Layout) {
  DiskCache cache(dir, "tuning");
  EXPECT_EQ(cache.directory(), dir);
  EXPECT_EQ(cache.pathFor(kKey),
            dir + "/tuning/" + kKey.substr(0, 2) + "/" + kKey + ".bin");
  ASSERT_TRUE(cache.put(kKey, "x"));
  EXPECT_EQ(filesUnder(dir),
            std::vector<std::string>{"tuning/" + kKey.substr(0, 2) + "/" +
                                     kKey + ".bin"});
}

TEST_F(DiskCacheTest, PutReplaces) {
  DiskCache cache(dir);
  ASSERT_TRUE(cache.put(kKey, "old"));
  ASSERT_TRUE(cache.put(kKey, "new"));
  EXPECT_EQ(cache.get(kKey), "new");
  EXPECT_EQ(filesUnder(dir).size(), 1u);
}

TEST_F(DiskCacheTest, NamespacesAreSeparate) {
  ASSERT_TRUE(DiskCache(dir, "cuda").put(kKey, "ptx"));
  EXPECT_EQ(DiskCache(dir, "tuning").get(kKey), std::nullopt);
  EXPECT_EQ(DiskCache(dir, "cuda").get(kKey), "ptx");
}

TEST_F(DiskCacheTest, InvalidKeysAndNamespacesThrow) {
  DiskCache cache(dir);
  for (const std::string &key :
       std::vector<std::string>{"", "a", "../etc/passwd", "ABCD", "ab/cd", "0g",
                                std::string(129, 'a')}) {
    EXPECT_THROW(cache.pathFor(key), std::invalid_argument) << key;
    EXPECT_THROW(cache.get(key), std::invalid_argument) << key;
    EXPECT_THROW(cache.put(key, "x"), std::invalid_argument) << key;
  }
  EXPECT_NO_THROW(cache.pathFor("00"));
  for (std::string ns : {"", ".", "..", "a/b"})
    EXPECT_THROW(DiskCache(dir, ns), std::invalid_argument) << ns;
}

TEST_F(DiskCacheTest, TruncatedEntryIsRemovedAndRebuilt) {
  DiskCache cache(dir);
  std::string payload = patternBytes(1000, 1);
  const size_t whole = 48 + payload.size();
  // Within the magic, the length, the checksum, the payload.
  for (size_t length :
       std::vector<size_t>{0, 1, 7, 8, 16, 47, 48, 49, whole / 2, whole - 1}) {
    ASSERT_TRUE(cache.put(kKey, payload));
    fs::resize_file(cache.pathFor(kKey), length);
    EXPECT_EQ(cache.get(kKey), std::nullopt) << length;
    EXPECT_FALSE(fs::exists(cache.pathFor(kKey))) << length;
  }
  ASSERT_TRUE(cache.put(kKey, payload));
  EXPECT_EQ(cache.get(kKey), payload);
}

TEST_F(DiskCacheTest, ExtendedEntryIsRemoved) {
  DiskCache cache(dir);
  ASSERT_TRUE(cache.put(kKey, "payload"));
  std::ofstream(cache.pathFor(kKey), std::ios::binary | std::ios::app) << "!";
  EXPECT_EQ(cache.get(kKey), std::nullopt);
  EXPECT_FALSE(fs::exists(cache.pathFor(kKey)));
}

// A planted sparse file whose header announces a terabyte, consistent with
// its size: a miss, removed, and nothing allocated (no abort for memory).
TEST_F(DiskCacheTest, EntryAnnouncingATerabyteIsRemovedUnread) {
  DiskCache cache(dir, "cpu");
  ASSERT_TRUE(cache.put(kKey, "payload"));
  std::string bytes = readBytes(cache.pathFor(kKey));
  uint64_t size = uint64_t(1) << 40;
  for (int i = 0; i < 8; ++i) // the payload size, after the 8-byte magic
    bytes[8 + i] = static_cast<char>(size >> (8 * i));
  writeBytes(cache.pathFor(kKey), bytes.substr(0, 48));
  fs::resize_file(cache.pathFor(kKey), 48 + size); // sparse
  EXPECT_EQ(cache.get(kKey), std::nullopt);
  EXPECT_FALSE(fs::exists(cache.pathFor(kKey)));
}

TEST_F(DiskCacheTest, FlippedByteIsRemoved) {
  DiskCache cache(dir);
  std::string payload = patternBytes(300, 2);
  // Magic, length, checksum, first, middle and last payload byte.
  for (size_t offset : {0, 7, 8, 15, 16, 47, 48, 198, 347}) {
    ASSERT_TRUE(cache.put(kKey, payload));
    std::string bytes = readBytes(cache.pathFor(kKey));
    bytes[offset] ^= 0x01;
    writeBytes(cache.pathFor(kKey), bytes);
    EXPECT_EQ(cache.get(kKey), std::nullopt) << offset;
    EXPECT_FALSE(fs::exists(cache.pathFor(kKey))) << offset;
  }
}

TEST_F(DiskCacheTest, WrongMagicIsRemoved) {
  DiskCache cache(dir);
  ASSERT_TRUE(cache.put(kKey, "payload"));
  std::string bytes = readBytes(cache.pathFor(kKey));
  bytes.replace(0, 8, "NORMCC1\n"); // the format before keys were checked
  writeBytes(cache.pathFor(kKey), bytes);
  EXPECT_EQ(cache.get(kKey), std::nullopt);
  EXPECT_FALSE(fs::exists(cache.pathFor(kKey)));
}

TEST_F(DiskCacheTest, FolderInPlaceOfEntryIsAMiss) {
  DiskCache cache(dir);
  fs::create_directories(cache.pathFor(kKey));
  EXPECT_EQ(cache.get(kKey), std::nullopt);
  EXPECT_FALSE(cache.put(kKey, "x"));
  EXPECT_TRUE(fs::is_directory(cache.pathFor(kKey)));
  EXPECT_EQ(filesUnder(dir), std::vector<std::string>{});
}

TEST_F(DiskCacheTest, FifoInPlaceOfEntryIsAMiss) {
  // Opening a FIFO for reading would wait for a writer.
  DiskCache cache(dir);
  fs::create_directories(fs::path(cache.pathFor(kKey)).parent_path());
  ASSERT_EQ(mkfifo(cache.pathFor(kKey).c_str(), 0600), 0);
  EXPECT_EQ(cache.get(kKey), std::nullopt);
  EXPECT_TRUE(fs::is_fifo(cache.pathFor(kKey)));
  ASSERT_TRUE(cache.put(kKey, "x"));
  EXPECT_EQ(cache.get(kKey), "x");
}

TEST_F(DiskCacheTest, ReadOnlyDirectory) {
  DiskCache cache(dir);
  std::string hit = sha256Hex("written before");
  ASSERT_TRUE(cache.put(hit, "payload"));
  std::string shard = fs::path(cache.pathFor(kKey)).parent_path();
  fs::create_directories(shard);
  // The root, the namespace folder and one shard folder read-only: a put
  // needing a new shard fails to create it, one into the existing shard
  // fails to create its temporary file.
  for (const std::string &folder :
       {dir, dir + "/cuda", shard,
        fs::path(cache.pathFor(hit)).parent_path().string()})
    fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec |
                                fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read |
                                fs::perms::others_exec);
  std::string newShardKey = "ff" + kKey.substr(2);
  ASSERT_NE(kKey.substr(0, 2), "ff");
  int status = runInChild([&] {
    // As root, the cache becomes nobody's, who then reads it: normc reads
    // only its own user's entries.
    if (::geteuid() == 0)
      for (const auto &entry : fs::recursive_directory_iterator(dir))
        if (::lchown(entry.path().c_str(), 65534, 65534) != 0 ||
            ::lchown(dir.c_str(), 65534, 65534) != 0)
          return kChildSkipped;
    if (!dropRoot())
      return kChildSkipped;
    if (cache.put(kKey, "x") || cache.put(newShardKey, "x"))
      return 1;
    if (cache.get(hit) != "payload" || cache.get(kKey))
      return 2;
    return 0;
  });
  if (status == kChildSkipped)
    GTEST_SKIP() << "cannot give up root";
  EXPECT_EQ(status, 0);
  EXPECT_EQ(filesUnder(dir).size(), 1u);
}

TEST_F(DiskCacheTest, DiskFull) {
  // A file size limit makes write() fail with EFBIG as a full disk fails it
  // with ENOSPC.
  DiskCache cache(dir);
  int status = runInChild([&] {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit{4096, 4096};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0)
      return kChildSkipped;
    if (cache.put(kKey, patternBytes(1 << 20, 3)))
      return 1;
    if (cache.get(kKey) || !filesUnder(dir).empty())
      return 2;
    if (!cache.put(kKey, "small") || cache.get(kKey) != "small")
      return 3;
    return 0;
  });
  if (status == kChildSkipped)
    GTEST_SKIP() << "cannot limit the file size";
  EXPECT_EQ(status, 0);
}

TEST_F(DiskCacheTest, RootIsAFile) {
  writeBytes(dir + "/file", "not a folder");
  DiskCache cache(dir + "/file");
  EXPECT_FALSE(cache.put(kKey, "x"));
  EXPECT_EQ(cache.get(kKey), std::nullopt);
  ASSERT_TRUE(cache.problem());
  EXPECT_NE(cache.problem()->find("is not a folder"), std::string::npos);
}

TEST_F(DiskCacheTest, EntryOfAnotherKeyIsRemoved) {
  // A whole, valid entry copied to another key's place (another spec's
  // kernel) does not verify there.
  DiskCache cache(dir);
  std::string other = sha256Hex("another kernel");
  ASSERT_TRUE(cache.put(other, "another payload"));
  ASSERT_TRUE(cache.put(kKey, "payload"));
  fs::copy_file(cache.pathFor(other), cache.pathFor(kKey),
                fs::copy_options::overwrite_existing);
  EXPECT_EQ(cache.get(kKey), std::nullopt);
  EXPECT_FALSE(fs::exists(cache.pathFor(kKey)));
  EXPECT_EQ(cache.get(other), "another payload");
}

TEST_F(DiskCacheTest, FoldersAndEntriesArePrivate) {
  DiskCache cache(dir + "/new");
  ASSERT_TRUE(cache.put(kKey, "payload"));
  std::string shard = fs::path(cache.pathFor(kKey)).parent_path();
  for (const std::string &folder : {dir + "/new", dir + "/new/cuda", shard}) {
    struct stat status;
    ASSERT_EQ(::stat(folder.c_str(), &status), 0) << folder;
    EXPECT_EQ(status.st_mode & 077, 0u) << folder;
  }
  struct stat status;
  ASSERT_EQ(::stat(cache.pathFor(kKey).c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 022, 0u);
}

TEST_F(DiskCacheTest, EntryOthersCanWriteIsNotRead) {
  DiskCache cache(dir);
  ASSERT_TRUE(cache.put(kKey, "payload"));
  for (fs::perms extra : {fs::perms::group_write, fs::perms::others_write}) {
    fs::permissions(cache.pathFor(kKey), extra, fs::perm_options::add);
    EXPECT_EQ(cache.get(kKey), std::nullopt);
    // Not the user's to remove.
    EXPECT_TRUE(fs::exists(cache.pathFor(kKey)));
    fs::permissions(cache.pathFor(kKey), extra, fs::perm_options::remove);
  }
  EXPECT_EQ(cache.get(kKey), "payload");
}

TEST_F(DiskCacheTest, EntryOfAnotherUserIsNotRead) {
  DiskCache cache(dir);
  ASSERT_TRUE(cache.put(kKey, "payload"));
  if (::geteuid() != 0)
    GTEST_SKIP() << "giving a file away needs root";
  ASSERT_EQ(::chown(cache.pathFor(kKey).c_str(), 65534, 65534), 0);
  EXPECT_EQ(cache.get(kKey), std::nullopt);
  EXPECT_TRUE(fs::exists(cache.pathFor(kKey)));
}

TEST_F(DiskCacheTest, LinkInPlaceOfEntryIsAMiss) {
  DiskCache cache(dir);
  std::string other = sha256Hex("another kernel");
  ASSERT_TRUE(cache.put(other, "payload"));
  fs::create_directories(fs::path(cache.pathFor(kKey)).parent_path());
  fs::create_symlink(cache.pathFor(other), cache.pathFor(kKey));
  EXPECT_EQ(cache.get(kKey), std::nullopt);
}

TEST_F(DiskCacheTest, RootOthersCanWriteDisablesTheCache) {
  DiskCache written(dir);
  ASSERT_TRUE(written.put(kKey, "payload"));
  fs::permissions(dir, fs::perms::all);
  DiskCache cache(dir);
  ASSERT_TRUE(cache.problem());
  EXPECT_NE(cache.problem()->find("writable by others (mode 0777)"),
            std::string::npos)
      << *cache.problem();
  EXPECT_EQ(cache.get(kKey), std::nullopt);
  EXPECT_FALSE(cache.put(kKey, "x"));
  EXPECT_EQ(written.get(kKey), "payload"); // checked once, when first used
}
