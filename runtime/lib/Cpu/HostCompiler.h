//===- HostCompiler.h - Running the host C++ compiler ---------------------===//

#ifndef NORMC_RUNTIME_CPU_HOSTCOMPILER_H
#define NORMC_RUNTIME_CPU_HOSTCOMPILER_H

#include <string>
#include <vector>

namespace normc {
namespace cpu {

struct ProcessResult {
  bool started;       // false: argv[0] could not be run (see output)
  int exitStatus;     // the exit code, or 128 + signal
  std::string output; // stdout and stderr, interleaved
};

/// Runs `argv` (argv[0] looked up in PATH) with stdin closed and waits for
/// it. Safe to call from several threads at once.
ProcessResult runProcess(const std::vector<std::string> &argv);

/// Where `program` resolves to through PATH, or "" if nowhere.
std::string findProgram(const std::string &program);

} // namespace cpu
} // namespace normc

#endif // NORMC_RUNTIME_CPU_HOSTCOMPILER_H
