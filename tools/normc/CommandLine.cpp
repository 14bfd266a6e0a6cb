//===- CommandLine.cpp - Arguments of the normc subcommands ---------------===//
#include "CommandLine.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace normc::tool;

std::optional<std::string> ParsedArgs::get(const std::string &name) const {
  auto it = options.find(name);
  if (it == options.end())
    return std::nullopt;
  return it->second;
}

void normc::tool::usageError(const std::string &message) {
  llvm::errs() << "normc: error: " << message
               << "\n(run 'normc --help' for usage)\n";
}

std::optional<ParsedArgs>
normc::tool::parseArgs(int argc, char **argv, int first,
                       const std::vector<std::string> &valued,
                       const std::vector<std::string> &flags) {
  auto contains = [](const std::vector<std::string> &list,
                     const std::string &s) {
    return std::find(list.begin(), list.end(), s) != list.end();
  };
  ParsedArgs args;
  bool optionsEnded = false;
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--" && !optionsEnded) {
      optionsEnded = true;
      continue;
    }
    if (optionsEnded || arg.size() < 2 || arg[0] != '-') {
      args.positional.push_back(arg);
      continue;
    }
    std::string name = arg, value;
    bool inlineValue = false;
    if (size_t eq = arg.find('='); eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      inlineValue = true;
    }
    if (contains(flags, name) && !inlineValue) {
      args.options[name] = "";
      continue;
    }
    bool anyName = contains(valued, kAnyOption) && name.size() > 2 &&
                   name.rfind("--", 0) == 0 && !contains(flags, name);
    if (!contains(valued, name) && !anyName) {
      usageError("unknown option '" + name + "'");
      return std::nullopt;
    }
    if (!inlineValue) {
      if (i + 1 >= argc) {
        usageError("option '" + name + "' needs a value");
        return std::nullopt;
      }
      value = argv[++i];
    }
    if (value.empty()) {
      usageError("option '" + name + "' needs a value, got an empty one");
      return std::nullopt;
    }
    args.options[name] = value;
  }
  return args;
}

std::optional<ParsedArgs>
normc::tool::parseCommand(int argc, char **argv, const std::string &command,
                          const char *usage, std::vector<std::string> valued,
                          std::vector<std::string> flags, int &exitCode) {
  flags.push_back("--help");
  std::optional<ParsedArgs> args = parseArgs(argc, argv, 0, valued, flags);
  exitCode = kExitUsage;
  if (!args)
    return std::nullopt;
  if (args->has("--help")) {
    llvm::outs() << usage;
    exitCode = 0;
    return std::nullopt;
  }
  if (args->positional.size() != 1) {
    usageError(command + " takes exactly one input file");
    return std::nullopt;
  }
  return args;
}

std::optional<long long> normc::tool::parsePositive(const ParsedArgs &args,
                                                    const std::string &name,
                                                    bool &ok) {
  std::optional<std::string> text = args.get(name);
  if (!text)
    return std::nullopt;
  long long value = 0;
  if (llvm::StringRef(*text).getAsInteger(10, value) || value <= 0) {
    usageError("'" + name + "' needs a positive integer, got '" + *text + "'");
    ok = false;
    return std::nullopt;
  }
  return value;
}
