//===- Commands.h - The normc subcommands ---------------------------------===//
#ifndef NORMC_TOOLS_NORMC_COMMANDS_H
#define NORMC_TOOLS_NORMC_COMMANDS_H

namespace normc::tool {
/// Each takes the arguments after the subcommand name and returns the exit
/// code: 0 success, 1 bad input, 2 bad usage.
int runCheck(int argc, char **argv);
int runCompile(int argc, char **argv);
int runRun(int argc, char **argv);
int runTune(int argc, char **argv);
} // namespace normc::tool

#endif // NORMC_TOOLS_NORMC_COMMANDS_H
