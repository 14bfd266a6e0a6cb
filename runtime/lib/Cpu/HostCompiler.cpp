//===- HostCompiler.cpp - Running the host C++ compiler -------------------===//

#include "HostCompiler.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace normc::cpu;

namespace {

/// Closes a descriptor when it goes out of scope.
class Fd {
public:
  explicit Fd(int fd = -1) : fd(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;
  int get() const { return fd; }
  void reset() {
    if (fd >= 0)
      ::close(fd);
    fd = -1;
  }

private:
  int fd;
};

} // namespace

ProcessResult normc::cpu::runProcess(const std::vector<std::string> &argv) {
  std::vector<char *> args;
  for (const std::string &arg : argv)
    args.push_back(const_cast<char *>(arg.c_str()));
  args.push_back(nullptr);

  // Close-on-exec, so that processes other threads spawn meanwhile do not
  // inherit the write end and keep the pipe open.
  int pipeFds[2];
  if (::pipe2(pipeFds, O_CLOEXEC) != 0)
    return {false, 0, std::string("pipe: ") + std::strerror(errno)};
  Fd readEnd(pipeFds[0]), writeEnd(pipeFds[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, writeEnd.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, writeEnd.get(), 2);
  pid_t pid = 0;
  int spawnError =
      ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawnError != 0)
    return {false, 0,
            "cannot run '" + argv[0] + "': " + std::strerror(spawnError)};
  writeEnd.reset();

  ProcessResult result{true, 0, ""};
  char buffer[4096];
  for (;;) {
    ssize_t n = ::read(readEnd.get(), buffer, sizeof buffer);
    if (n > 0)
      result.output.append(buffer, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR)
      break;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  result.exitStatus =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string normc::cpu::findProgram(const std::string &program) {
  if (program.find('/') != std::string::npos)
    return ::access(program.c_str(), X_OK) == 0 ? program : "";
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos)
      end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    start = end + 1;
  }
  return "";
}
