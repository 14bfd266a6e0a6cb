//===- CommandLine.h - Arguments of the normc subcommands -----------------===//
#ifndef NORMC_TOOLS_NORMC_COMMANDLINE_H
#define NORMC_TOOLS_NORMC_COMMANDLINE_H

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace normc::tool {

/// Exit codes: 1 for bad input, 2 for bad command-line usage.
constexpr int kExitError = 1, kExitUsage = 2;

/// `--name=value`, `--name value`, `-o value` and positional arguments.
/// Flags without a value are recorded with an empty value.
struct ParsedArgs {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;

  bool has(const std::string &name) const { return options.count(name); }
  std::optional<std::string> get(const std::string &name) const;
};

/// In `valued`: every `--name` not otherwise listed takes a value (options
/// named by data, such as normc run's argument files).
inline const char kAnyOption[] = "--*";

/// Parses argv[first..]; `valued` lists options that take a value, `flags`
/// those that do not. After `--` every argument is positional. Prints a
/// usage error and returns std::nullopt on an unknown option or a missing
/// value.
std::optional<ParsedArgs> parseArgs(int argc, char **argv, int first,
                                    const std::vector<std::string> &valued,
                                    const std::vector<std::string> &flags);

/// The arguments of a subcommand that takes exactly one input file. Adds
/// --help, which prints `usage`. When the command should not run (--help,
/// or a usage error, which is printed) returns nullopt and sets `exitCode`.
std::optional<ParsedArgs>
parseCommand(int argc, char **argv, const std::string &command,
             const char *usage, std::vector<std::string> valued,
             std::vector<std::string> flags, int &exitCode);

/// Parses a positive integer option; prints a usage error when malformed.
std::optional<long long> parsePositive(const ParsedArgs &args,
                                       const std::string &name, bool &ok);

/// Prints "normc: error: MESSAGE" to stderr.
void usageError(const std::string &message);

} // namespace normc::tool

#endif // NORMC_TOOLS_NORMC_COMMANDLINE_H
