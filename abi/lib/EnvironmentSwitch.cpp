//===- EnvironmentSwitch.cpp - On/off settings from the environment -------===//
#include "normc/Abi/EnvironmentSwitch.h"
#include "normc/Abi/Printable.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

std::optional<bool> normc::parseSwitch(std::string_view text) {
  std::string lower;
  for (char c : text)
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char *on : {"1", "true", "on", "yes"})
    if (lower == on)
      return true;
  for (const char *off : {"0", "false", "off", "no"})
    if (lower == off)
      return false;
  return std::nullopt;
}

std::optional<bool> normc::environmentSwitch(const char *name) {
  const char *value = std::getenv(name);
  if (!value || !*value)
    return std::nullopt;
  std::optional<bool> on = parseSwitch(value);
  if (!on)
    std::fprintf(stderr,
                 "normc: warning: %s='%s' is not a switch (1/0, true/false, "
                 "on/off, yes/no); ignoring it\n",
                 name, printable(value).c_str());
  return on;
}
