//===- DiskCache.cpp - Content-addressed entries in a shared folder -------===//
//
// Entries appear only by rename (AtomicWrite.h), so a reader holds either an
// old whole file or a new whole one, and processes need no locks. A file
// that is not a whole, valid entry of its key (a crash after the rename, a
// disk error, a tampered or misplaced file) reads as a miss and is
// removed, so the next put rebuilds it. Trust.h decides whose files are
// read at all.
//
//===----------------------------------------------------------------------===//

#include "normc/Runtime/Cache/DiskCache.h"

#include "AtomicWrite.h"
#include "EntryFormat.h"
#include "Trust.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

using namespace normc::cache;

namespace {

void checkKey(const std::string &key) {
  bool valid = key.size() >= 2 && key.size() <= 128;
  for (char c : key)
    valid = valid && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
  if (!valid)
    throw std::invalid_argument("normc cache: invalid key '" + key +
                                "' (expected 2 to 128 lowercase hex digits)");
}

bool readFully(int fd, char *data, size_t size) {
  while (size > 0) {
    ssize_t got = ::read(fd, data, size);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return false;
    data += got;
    size -= static_cast<size_t>(got);
  }
  return true;
}

/// The payload of the entry of `key` open as `fd`, or nullopt when the file
/// is not a whole entry with a matching checksum.
/// An entry is a kernel's source or object or a precompiled header, tens
/// of megabytes at most: a larger one (a planted sparse file announcing a
/// terabyte) is read as a miss, never allocated.
constexpr uint64_t kMaxEntryBytes = uint64_t(1) << 30;

std::optional<std::string> readEntry(int fd, uint64_t fileSize,
                                     const std::string &key) {
  Header header;
  if (fileSize < kHeaderSize || fileSize > kMaxEntryBytes ||
      !readFully(fd, header.data(), kHeaderSize))
    return std::nullopt;
  std::optional<HeaderFields> fields = decodeHeader(header);
  if (!fields || fields->payloadSize != fileSize - kHeaderSize)
    return std::nullopt;
  std::string payload(fields->payloadSize, '\0');
  if (!readFully(fd, payload.data(), payload.size()) ||
      entryChecksum(key, payload) != fields->checksum)
    return std::nullopt;
  return payload;
}

/// Removes `path` if it is still the file described by `opened`: another
/// process may have renamed a fresh entry over it since. (Between the check
/// and the unlink such an entry can still be lost; it is then rebuilt.)
void removeIfUnchanged(const std::string &path, const struct stat &opened) {
  struct stat now;
  if (::stat(path.c_str(), &now) == 0 && now.st_dev == opened.st_dev &&
      now.st_ino == opened.st_ino)
    ::unlink(path.c_str());
}

/// Creates `folder` and its parents, private to the user; another process
/// creating them at the same time is no failure.
bool makeFolder(const std::string &folder) {
  struct stat status;
  if (::stat(folder.c_str(), &status) == 0)
    return S_ISDIR(status.st_mode);
  size_t slash = folder.find_last_of('/');
  if (slash != std::string::npos && slash > 0 &&
      !makeFolder(folder.substr(0, slash)))
    return false;
  return ::mkdir(folder.c_str(), 0700) == 0 || errno == EEXIST;
}

/// Why `root` cannot hold a cache, or nullopt.
std::optional<std::string> rootProblem(const std::string &root) {
  if (root.empty())
    return std::string("there is no cache folder (set NORMC_CACHE_DIR, "
                       "XDG_CACHE_HOME or HOME)");
  makeFolder(root);
  struct stat status;
  if (::stat(root.c_str(), &status) != 0)
    return "cannot create " + root + ": " + std::strerror(errno);
  if (!S_ISDIR(status.st_mode))
    return root + " is not a folder";
  if (std::optional<std::string> why = distrust(status))
    return root + " is " + *why;
  return std::nullopt;
}

} // namespace

DiskCache::DiskCache(std::string dir, std::string ns)
    : root(dir.empty() ? defaultCacheDir() : std::move(dir)),
      ns(std::move(ns)) {
  if (this->ns.empty() || this->ns == "." || this->ns == ".." ||
      this->ns.find('/') != std::string::npos)
    throw std::invalid_argument("normc cache: invalid namespace '" + this->ns +
                                "' (expected one folder name)");
}

std::string DiskCache::pathFor(const std::string &key) const {
  checkKey(key);
  if (root.empty())
    return "";
  return root + "/" + ns + "/" + key.substr(0, 2) + "/" + key + ".bin";
}

const std::optional<std::string> &DiskCache::problem() const {
  std::call_once(rootCheck->once, [&] {
    rootCheck->problem = rootProblem(root);
    if (rootCheck->problem)
      warnOnce("not using the kernel cache: " + *rootCheck->problem +
               "; compiling without it");
  });
  return rootCheck->problem;
}

std::optional<std::string> DiskCache::get(const std::string &key) const {
  std::string path = pathFor(key);
  if (path.empty() || problem())
    return std::nullopt;
  // O_NONBLOCK: a FIFO planted at the path must not hang the reader;
  // O_NOFOLLOW: an entry is a file, never a link to one.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
  if (fd < 0)
    return std::nullopt;
  std::optional<std::string> payload;
  struct stat opened;
  std::optional<std::string> why;
  if (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode)) {
    // A folder or device in the entry's place: a miss.
  } else if ((why = distrust(opened))) {
    warnOnce("not loading the cache entry " + path + ": it is " + *why);
  } else {
    try {
      payload = readEntry(fd, static_cast<uint64_t>(opened.st_size), key);
      if (!payload)
        removeIfUnchanged(path, opened);
    } catch (const std::bad_alloc &) {
      // An entry too large to hold now is a miss; the file may be fine.
    }
  }
  ::close(fd);
  return payload;
}

bool DiskCache::put(const std::string &key, std::string_view payload) const {
  std::string path = pathFor(key);
  if (path.empty() || problem())
    return false;
  bool written = false;
  try {
    Header header = encodeHeader(key, payload);
    written =
        makeFolder(path.substr(0, path.rfind('/'))) &&
        writeAtomically(
            path, {std::string_view(header.data(), kHeaderSize), payload});
  } catch (const std::exception &) {
    // Out of memory for a path: as for any failed write, the caller
    // recompiles next time.
  }
  if (!written)
    warnOnce("cannot write to the kernel cache in " + root +
             " (read-only, or full?); kernels will be compiled again");
  return written;
}
