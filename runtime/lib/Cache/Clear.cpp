//===- Clear.cpp - Emptying the on-disk caches ----------------------------===//
//
// Removes only what a cache writes, by name and owner, so that a cache root
// set to the wrong folder (NORMC_CACHE_DIR=$HOME) costs nothing but normc's
// own files.
//
//===----------------------------------------------------------------------===//

#include "normc/Runtime/Cache/DiskCache.h"

#include <dirent.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace normc::cache;

namespace {

bool isHex(std::string_view text) {
  return !text.empty() &&
         text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

/// An entry's name (<key>.bin, a key of 2 to 128 hex digits), or that of
/// the temporary file a write makes beside it (.<key>.bin.<suffix>.tmp).
bool isCacheFileName(std::string_view name) {
  auto isEntry = [](std::string_view n) {
    return n.size() > 4 && n.substr(n.size() - 4) == ".bin" &&
           n.size() - 4 >= 2 && n.size() - 4 <= 128 &&
           isHex(n.substr(0, n.size() - 4));
  };
  if (isEntry(name))
    return true;
  if (name.size() < 6 || name[0] != '.' ||
      name.substr(name.size() - 4) != ".tmp")
    return false;
  size_t bin = name.find(".bin.");
  return bin != std::string_view::npos && isEntry(name.substr(1, bin + 3));
}

/// The names in a folder, but "." and "..".
std::vector<std::string> namesIn(const std::string &folder) {
  std::vector<std::string> names;
  DIR *dir = ::opendir(folder.c_str());
  if (!dir)
    return names;
  while (dirent *entry = ::readdir(dir)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..")
      names.push_back(std::move(name));
  }
  ::closedir(dir);
  return names;
}

/// Whether `path` is a real folder (not a link to one) the user owns.
bool isOwnFolder(const std::string &path) {
  struct stat status;
  return ::lstat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode) &&
         status.st_uid == ::geteuid();
}

} // namespace

ClearedEntries normc::cache::clearCache(std::string dir) {
  if (dir.empty())
    dir = defaultCacheDir();
  ClearedEntries cleared;
  if (dir.empty() || !isOwnFolder(dir))
    return cleared;
  for (const std::string &ns : namesIn(dir)) {
    std::string nsPath = dir + "/" + ns;
    if (!isOwnFolder(nsPath))
      continue;
    for (const std::string &shard : namesIn(nsPath)) {
      std::string shardPath = nsPath + "/" + shard;
      if (shard.size() != 2 || !isHex(shard) || !isOwnFolder(shardPath))
        continue;
      for (const std::string &file : namesIn(shardPath)) {
        std::string path = shardPath + "/" + file;
        struct stat status;
        if (!isCacheFileName(file) || ::lstat(path.c_str(), &status) != 0 ||
            !S_ISREG(status.st_mode) || status.st_uid != ::geteuid())
          continue;
        if (::unlink(path.c_str()) == 0) {
          ++cleared.files;
          cleared.bytes += status.st_size;
        }
      }
      ::rmdir(shardPath.c_str()); // only when it is empty now
    }
  }
  return cleared;
}
