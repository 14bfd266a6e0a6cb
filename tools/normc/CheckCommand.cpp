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
  std::optional<ParsedArgs> args = parseArgs(argc, argv, 0, {}, {"--help"});
  if (!args)
    return kExitUsage;
  if (args->has("--help")) {
    llvm::outs() << kCheckUsage;
    return 0;
  }
  if (args->positional.size() != 1) {
    usageError("check takes exactly one spec file");
    return kExitUsage;
  }
  return readSpec(args->positional[0]) ? 0 : kExitError;
}
