//===- CheckCommand.cpp - normc check -------------------------------------===//
#include "CommandLine.h"
#include "Commands.h"
#include "SpecInput.h"

#include "llvm/Support/raw_ostream.h"

static const char kCheckUsage[] = R"(usage: normc check SPEC.toml

Validates a spec. Prints nothing and exits 0 when it is valid; otherwise
prints FILE:LINE:COL: error: ... for each problem and exits 1.
)";

int normc::tool::runCheck(int argc, char **argv) {
  int exitCode = 0;
  std::optional<ParsedArgs> args =
      parseCommand(argc, argv, "check", kCheckUsage, {}, {}, exitCode);
  if (!args)
    return exitCode;
  return readSpec(args->positional[0]) ? 0 : kExitError;
}
