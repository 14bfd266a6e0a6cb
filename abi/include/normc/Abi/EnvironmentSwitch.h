//===- EnvironmentSwitch.h - On/off settings from the environment ---------===//
#ifndef NORMC_ABI_ENVIRONMENTSWITCH_H
#define NORMC_ABI_ENVIRONMENTSWITCH_H

#include <optional>
#include <string_view>

namespace normc {

/// A switch's spelling: 1, true, on, yes and 0, false, off, no, in any case;
/// nullopt for anything else.
std::optional<bool> parseSwitch(std::string_view text);

/// The environment variable `name` as a switch: nullopt when it is unset or
/// empty, or when it is spelled otherwise, which also prints a warning
/// naming the variable to stderr (and it is then ignored).
std::optional<bool> environmentSwitch(const char *name);

} // namespace normc

#endif // NORMC_ABI_ENVIRONMENTSWITCH_H
