//===- OutputFile.h - Write outputs whole or not at all -------------------===//
#ifndef NORMC_TOOLS_NORMC_OUTPUTFILE_H
#define NORMC_TOOLS_NORMC_OUTPUTFILE_H

#include <string>
#include <utility>
#include <vector>

namespace normc::tool {

/// Files written as a set: each goes first to a temporary file next to its
/// target; commit() then renames them all into place, after checking that
/// no target is a folder. Without a commit the temporaries are removed, so
/// a failure leaves none of the files.
class StagedFiles {
public:
  StagedFiles() = default;
  StagedFiles(const StagedFiles &) = delete;
  StagedFiles &operator=(const StagedFiles &) = delete;
  ~StagedFiles();

  /// Returns an error message, empty on success.
  std::string add(const std::string &path, const std::string &contents);
  std::string commit();

private:
  std::vector<std::pair<std::string, std::string>> staged; // temp, target
};

/// One file through StagedFiles.
std::string writeFileAtomically(const std::string &path,
                                const std::string &contents);

} // namespace normc::tool

#endif // NORMC_TOOLS_NORMC_OUTPUTFILE_H
