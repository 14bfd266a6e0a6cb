//===- OutputFile.h - Write outputs whole or not at all -------------------===//
#ifndef NORMC_TOOLS_NORMC_OUTPUTFILE_H
#define NORMC_TOOLS_NORMC_OUTPUTFILE_H

#include <string>

namespace normc::tool {

/// Writes `contents` to `path` through a temporary file in the same folder
/// and a rename, so a failure never leaves a partial file. Returns an error
/// message, empty on success.
std::string writeFileAtomically(const std::string &path,
                                const std::string &contents);

} // namespace normc::tool

#endif // NORMC_TOOLS_NORMC_OUTPUTFILE_H
