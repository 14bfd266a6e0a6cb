//===- Trust.h - Which cache files normc may load, and its warnings -------===//
//
// As ssh treats its keys: a cache folder or entry that is not owned by the
// user running normc, or that others can write, could hold another user's
// code, so it is never read. Problems with a cache are reported once per
// process, and normc then works without it.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_CACHE_TRUST_H
#define NORMC_RUNTIME_CACHE_TRUST_H

#include <optional>
#include <string>
#include <sys/stat.h>

namespace normc::cache {

/// Why a file or folder with this status may not be trusted ("owned by
/// uid 1001", "writable by others (mode 0777)"), or nullopt.
std::optional<std::string> distrust(const struct stat &status);

/// Prints "normc: warning: MESSAGE" to stderr, once per process for each
/// distinct message.
void warnOnce(const std::string &message);

} // namespace normc::cache

#endif // NORMC_RUNTIME_CACHE_TRUST_H
