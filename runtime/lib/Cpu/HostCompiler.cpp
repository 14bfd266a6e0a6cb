//===- HostCompiler.cpp - Running the host C++ compiler -------------------===//

#include "HostCompiler.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
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

  std::string program = findProgram(argv[0]);
  if (program.empty())
    return {false, 0, "cannot run '" + argv[0] + "': not found"};
  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0)
    return {false, 0, std::string("fork: ") + std::strerror(errno)};
  if (pid == 0) {
    // Only async-signal-safe calls here. The compiler dies with the thread
    // that started it: a normc killed outright (SIGKILL) leaves no compiler
    // running (the thread waits for it, so it never outlives it otherwise).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent)
      ::_exit(127);
    int devNull = ::open("/dev/null", O_RDONLY);
    if (devNull < 0 || ::dup2(devNull, 0) < 0 ||
        ::dup2(writeEnd.get(), 1) < 0 || ::dup2(writeEnd.get(), 2) < 0)
      ::_exit(127);
    ::execve(program.c_str(), args.data(), environ);
    ::_exit(127);
  }
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
