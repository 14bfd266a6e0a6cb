//===- ReadFile.h - Whole files into memory -------------------------------===//
#ifndef NORMC_ABI_READFILE_H
#define NORMC_ABI_READFILE_H

#include <cstdint>
#include <optional>
#include <string>

namespace normc {

/// Appends the bytes of the file at `path` to `text`, reading at most
/// `limit` of them (an endless or huge input, /dev/zero, is an error, not
/// a process that eats memory); returns the reason (strerror, or "larger
/// than LIMIT bytes") on failure, nullopt on success.
std::optional<std::string> readFile(const std::string &path, std::string &text,
                                    uint64_t limit);

} // namespace normc

#endif // NORMC_ABI_READFILE_H
