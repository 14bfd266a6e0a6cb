//===- AtomicWrite.cpp - Replacing a file so that readers never see half --===//
//
// No fsync: after a crash the renamed file may hold garbage, which the
// entry's checksum catches, and syncing every entry would make compiling a
// batch of kernels wait on the disk.
//
//===----------------------------------------------------------------------===//

#include "AtomicWrite.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

using namespace normc::cache;

namespace {

/// A name beside `path` that no other writer uses: the process id tells
/// processes apart, the counter threads and calls, and the clock processes
/// of other pid namespaces sharing the folder. The leading dot keeps the
/// file out of listings; O_EXCL catches whatever collision remains.
std::string temporaryName(const std::string &path) {
  static std::atomic<unsigned long> counter{0};
  size_t slash = path.rfind('/') + 1;
  auto clock =
      std::chrono::steady_clock::now().time_since_epoch().count() & 0xffffff;
  return path.substr(0, slash) + "." + path.substr(slash) + "." +
         std::to_string(::getpid()) + "-" + std::to_string(++counter) + "-" +
         std::to_string(clock) + ".tmp";
}

bool writeFully(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0)
      return false;
    bytes.remove_prefix(static_cast<size_t>(written));
  }
  return true;
}

} // namespace

bool normc::cache::writeAtomically(
    const std::string &path, std::initializer_list<std::string_view> parts) {
  std::string temporary;
  int fd = -1;
  for (int attempt = 0; attempt < 8 && fd < 0; ++attempt) {
    temporary = temporaryName(path);
    // 0644: never writable by others, whatever the umask (Trust.h).
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                0644);
    if (fd < 0 && errno != EEXIST)
      return false;
  }
  if (fd < 0)
    return false;

  bool ok = true;
  for (std::string_view part : parts)
    ok = ok && writeFully(fd, part);
  // close() reports the write errors some file systems (NFS) defer.
  ok = ::close(fd) == 0 && ok;
  ok = ok && std::rename(temporary.c_str(), path.c_str()) == 0;
  if (!ok)
    ::unlink(temporary.c_str());
  return ok;
}
