//===- ProcessCleanupTest.cpp - Nothing outlives a normc killed outright --===//
//
// A process killed with SIGKILL cannot clean up after itself: the host
// compiler it started dies with it, and the next normc removes the private
// folder it left (docs/hostile-input.md).
//
//===----------------------------------------------------------------------===//
#include "HostCompiler.h"
#include "PrivateFolder.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace normc::cpu;
namespace fs = std::filesystem;

namespace {

std::string temporaryRoot() {
  const char *value = std::getenv("TMPDIR");
  return value && *value ? value : "/tmp";
}

/// Whether process `pid` has ended: gone, or a zombie no one has reaped
/// yet (its new parent may be slow to).
bool ended(pid_t pid) {
  if (::kill(pid, 0) != 0)
    return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  size_t close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() &&
         line[close + 2] == 'Z';
}

/// The id of a process that has exited (and been reaped).
pid_t deadProcess() {
  pid_t pid = ::fork();
  if (pid == 0)
    ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

TEST(ProcessCleanup, FoldersOfDeadProcessesAreRemoved) {
  fs::path dead = fs::path(temporaryRoot()) /
                  ("normc-cpu-" + std::to_string(deadProcess()) + "-test01");
  fs::path alive = fs::path(temporaryRoot()) /
                   ("normc-cpu-" + std::to_string(::getppid()) + "-test02");
  fs::path other = fs::path(temporaryRoot()) / "normc-cpu-notapid-test03";
  for (const fs::path &folder : {dead, alive, other}) {
    fs::create_directories(folder);
    std::ofstream(folder / "kernel.cpp") << "// left behind\n";
  }
  // The sweep runs once a process, at its first private folder: in a child,
  // so that this test does not depend on what ran before it.
  pid_t child = ::fork();
  if (child == 0) {
    PrivateFolder folder;
    ::_exit(fs::exists(folder.path()) ? 0 : 1);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(alive));
  EXPECT_TRUE(fs::exists(other));
  fs::remove_all(alive);
  fs::remove_all(other);
}

TEST(ProcessCleanup, TheCompilerDiesWithItsCaller) {
  fs::path pidFile = fs::path(temporaryRoot()) /
                     ("normc-cleanup-" + std::to_string(::getpid()));
  fs::remove(pidFile);
  // The caller runs a "compiler" that records its pid and waits a minute;
  // the caller is then killed outright.
  pid_t caller = ::fork();
  if (caller == 0) {
    runProcess(
        {"sh", "-c", "echo $$ > " + pidFile.string() + "; exec sleep 60"});
    ::_exit(0);
  }
  pid_t compiler = 0;
  for (int i = 0; i < 500 && !compiler; ++i) {
    std::ifstream in(pidFile);
    if (!(in >> compiler))
      compiler = 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_GT(compiler, 0) << "the compiler never started";
  ::kill(caller, SIGKILL);
  ::waitpid(caller, nullptr, 0);
  bool gone = false;
  for (int i = 0; i < 500 && !gone; ++i) {
    gone = ended(compiler);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(gone) << "the compiler outlived its caller";
  fs::remove(pidFile);
}

} // namespace
