//===- TuneCommand.cpp - normc tune ---------------------------------------===//
#include "CommandLine.h"
#include "Commands.h"
#include "SpecInput.h"

#include "normc/normc.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace normc;
using namespace normc::tool;

static const char kTuneUsage[] =
    R"(usage: normc tune SPEC.toml --cols=D --rows=R [--device=auto|cpu|cuda]
                  [--backward]

Measures every schedule candidate of the spec's kernel for [R, D] on the
device (CUDA events on a GPU, wall-clock time on the CPU device), prints the
table, and stores the winner in the tuning database that later processes
(normc run, the runtime API) reuse. With --backward, the same for the
backward's kernels (dx, dgamma, dbeta with the statistics recomputed). The database lives in the cache folder:
$NORMC_CACHE_DIR, else $XDG_CACHE_HOME/normc, else ~/.cache/normc.
)";

int normc::tool::runTune(int argc, char **argv) {
  int exitCode = 0;
  std::optional<ParsedArgs> args =
      parseCommand(argc, argv, "tune", kTuneUsage,
                   {"--cols", "--rows", "--device"}, {"--backward"}, exitCode);
  if (!args)
    return exitCode;
  bool ok = true;
  std::optional<long long> d = parsePositive(*args, "--cols", ok);
  std::optional<long long> rows = parsePositive(*args, "--rows", ok);
  if (!ok)
    return kExitUsage;
  if (!d || !rows) {
    usageError("tune needs --cols=D and --rows=R");
    return kExitUsage;
  }
  RuntimeOptions options;
  std::string device = args->get("--device").value_or("auto");
  if (device == "cpu")
    options.device = DeviceKind::Cpu;
  else if (device == "cuda")
    options.device = DeviceKind::Cuda;
  else if (device != "auto") {
    usageError("unknown device '" + device + "'; expected auto, cpu or cuda");
    return kExitUsage;
  }
  // Spec diagnostics first, in the form every command prints them.
  if (!readSpec(args->positional[0]))
    return kExitError;
  try {
    Runtime runtime(options);
    Norm norm = runtime.loadSpecFile(args->positional[0]);
    bool backward = args->has("--backward");
    llvm::outs() << "tuning " << norm.name() << (backward ? " backward" : "")
                 << " for [" << *rows << ", " << *d << "] on "
                 << runtime.deviceName() << "\n";
    llvm::outs() << llvm::format("  %-72s %10s\n", "schedule", "time (ms)");
    auto show = [](const TuneResult &result) {
      if (result.milliseconds >= 0)
        llvm::outs() << llvm::format(
            "  %-72s %10.4f\n", result.schedule.c_str(), result.milliseconds);
      else
        llvm::outs() << llvm::format("  %-72s %10s  (%s)\n",
                                     result.schedule.c_str(), "-",
                                     result.note.c_str());
      llvm::outs().flush();
    };
    TuneReport report = backward ? norm.tuneBackward(*d, *rows, show)
                                 : norm.tune(*d, *rows, show);
    llvm::outs() << "winner: " << report.winner
                 << " (stored in the tuning database)\n";
  } catch (const std::exception &error) {
    llvm::errs() << args->positional[0] << ": error: " << error.what() << "\n";
    return kExitError;
  }
  return 0;
}
