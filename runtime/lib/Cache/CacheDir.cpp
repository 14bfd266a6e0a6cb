//===- CacheDir.cpp - Where the on-disk caches live -----------------------===//
//
// The same root as the CPU device's object cache (docs/cpu-device.md), so
// that one variable moves, and one folder clears, every cache of normc.
//
//===----------------------------------------------------------------------===//

#include "normc/Runtime/Cache/DiskCache.h"

#include <cstdlib>
#include <pwd.h>
#include <unistd.h>
#include <vector>

using namespace normc::cache;

namespace {

std::string variable(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

/// $HOME, else the home directory of the user in the password database
/// (services and containers often run without HOME), else empty.
std::string homeDirectory() {
  std::string home = variable("HOME");
  if (!home.empty())
    return home;
  long size = ::sysconf(_SC_GETPW_R_SIZE_MAX);
  std::vector<char> buffer(size > 0 ? size : 16384);
  passwd entry;
  passwd *found = nullptr;
  if (::getpwuid_r(::getuid(), &entry, buffer.data(), buffer.size(), &found) ==
          0 &&
      found && found->pw_dir)
    return found->pw_dir;
  return "";
}

} // namespace

std::string normc::cache::defaultCacheDir() {
  std::string dir = variable("NORMC_CACHE_DIR");
  if (!dir.empty())
    return dir;
  std::string xdg = variable("XDG_CACHE_HOME");
  if (!xdg.empty())
    return xdg + "/normc";
  std::string home = homeDirectory();
  return home.empty() ? "" : home + "/.cache/normc";
}
