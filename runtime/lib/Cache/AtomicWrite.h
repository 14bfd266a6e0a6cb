//===- AtomicWrite.h - Replacing a file so that readers never see half ----===//

#ifndef NORMC_RUNTIME_CACHE_ATOMICWRITE_H
#define NORMC_RUNTIME_CACHE_ATOMICWRITE_H

#include <initializer_list>
#include <string>
#include <string_view>

namespace normc::cache {

/// Writes `parts`, one after the other, to a temporary file with a unique
/// name in the folder of `path` (which must exist), then renames it over
/// `path`. A reader that opens `path` sees the old file or the new one,
/// whole. Returns false, with the temporary file removed, when any step
/// fails.
bool writeAtomically(const std::string &path,
                     std::initializer_list<std::string_view> parts);

} // namespace normc::cache

#endif // NORMC_RUNTIME_CACHE_ATOMICWRITE_H
