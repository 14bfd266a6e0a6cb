//===- CacheTestUtil.h - Helpers shared by the cache tests ----------------===//
//
// A temporary cache directory per test, a way to run code in a child
// process (other users, resource limits, concurrency), and listings.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_TESTS_UNIT_CACHE_CACHETESTUTIL_H
#define NORMC_TESTS_UNIT_CACHE_CACHETESTUTIL_H

#include "normc/Runtime/Cache/DiskCache.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace normc::cache::test {

/// A fresh directory under the system's temporary directory, removed with
/// everything in it at the end of the test.
class CacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "normc-cache-XXXXXX")
            .string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir = pattern;
  }
  void TearDown() override {
    if (dir.empty())
      return;
    // Tests may leave read-only folders behind.
    std::filesystem::permissions(dir, std::filesystem::perms::owner_all);
    for (const auto &entry : std::filesystem::recursive_directory_iterator(dir))
      if (entry.is_directory())
        std::filesystem::permissions(entry.path(),
                                     std::filesystem::perms::owner_all);
    std::filesystem::remove_all(dir);
  }

  std::string dir;
};

/// Starts `body` in a forked child, which leaves with its result as exit
/// status by _exit, so that no test framework code runs twice.
template <typename Body> pid_t startChild(Body body) {
  pid_t pid = fork();
  if (pid == 0)
    _exit(body());
  return pid;
}

/// The exit status of child `pid`, or 128 plus the signal that killed it.
inline int waitForChild(pid_t pid) {
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid)
    return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

template <typename Body> int runInChild(Body body) {
  return waitForChild(startChild(body));
}

/// In a child: gives up root, which ignores file permissions, for user
/// nobody. False when still privileged.
inline bool dropRoot() {
  if (geteuid() != 0)
    return true;
  return setgid(65534) == 0 && setuid(65534) == 0 && geteuid() != 0;
}

/// Exit status of a child that could not set up its test.
constexpr int kChildSkipped = 77;

/// Every regular file under `root`, as paths relative to it.
inline std::vector<std::string> filesUnder(const std::string &root) {
  std::vector<std::string> files;
  for (const auto &entry : std::filesystem::recursive_directory_iterator(root))
    if (entry.is_regular_file())
      files.push_back(std::filesystem::relative(entry.path(), root).string());
  return files;
}

/// `size` bytes that depend on `seed` (so that entries are distinguishable).
inline std::string patternBytes(size_t size, unsigned seed) {
  std::string bytes(size, '\0');
  unsigned state = seed * 2654435761u + 1;
  for (char &c : bytes) {
    state = state * 1664525u + 1013904223u;
    c = static_cast<char>(state >> 24);
  }
  return bytes;
}

} // namespace normc::cache::test

#endif // NORMC_TESTS_UNIT_CACHE_CACHETESTUTIL_H
