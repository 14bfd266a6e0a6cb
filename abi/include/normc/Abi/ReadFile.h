//===- ReadFile.h - Whole files into memory -------------------------------===//
#ifndef NORMC_ABI_READFILE_H
#define NORMC_ABI_READFILE_H

#include <optional>
#include <string>

namespace normc {

/// Appends the bytes of the file at `path` to `text`; returns the reason
/// (strerror) on failure, nullopt on success.
std::optional<std::string> readFile(const std::string &path, std::string &text);

} // namespace normc

#endif // NORMC_ABI_READFILE_H
