//===- OutputFile.h - Write outputs whole or not at all -------------------===//
//
// How normc writes what -o and --out name (README.md, "Output files"):
// - "-" is standard output;
// - an existing file that is not a regular file (/dev/null, /dev/stdout, a
//   FIFO) is opened and written, never replaced;
// - a symbolic link is written through: the file it points to is replaced
//   and the link kept (a link to nothing is refused);
// - anything else goes to a temporary file next to its target, renamed
//   over it only when every file of the set is written, and with the mode
//   of the file it replaces.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_TOOLS_NORMC_OUTPUTFILE_H
#define NORMC_TOOLS_NORMC_OUTPUTFILE_H

#include <cstdio>
#include <string>
#include <vector>

namespace normc::tool {

/// Files written as a set: all of them or, when any step fails, none (the
/// files replaced so far are put back).
class StagedFiles {
public:
  /// `rename` replaces a file by another (tests make it fail).
  using Rename = int (*)(const char *from, const char *to);
  explicit StagedFiles(Rename rename = ::rename) : rename(rename) {}
  StagedFiles(const StagedFiles &) = delete;
  StagedFiles &operator=(const StagedFiles &) = delete;
  ~StagedFiles();

  /// Returns an error message, empty on success.
  std::string add(const std::string &path, const std::string &contents);
  std::string commit();

private:
  struct Staged {
    std::string shown;     // the path as given, for messages
    std::string target;    // where it goes (a link's target)
    bool inPlace = false;  // standard output, a device or a FIFO
    std::string contents;  // what is written in place at commit
    std::string temporary; // else the new file, until renamed into place
    std::string backup;    // and the file it replaces, until all are placed
  };
  Rename rename;
  std::vector<Staged> staged;
  void rollBack(size_t placed);
};

/// One file through StagedFiles.
std::string writeFileAtomically(const std::string &path,
                                const std::string &contents);

} // namespace normc::tool

#endif // NORMC_TOOLS_NORMC_OUTPUTFILE_H
