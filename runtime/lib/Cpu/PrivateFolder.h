//===- PrivateFolder.h - A temporary folder only this process uses --------===//

#ifndef NORMC_RUNTIME_CPU_PRIVATEFOLDER_H
#define NORMC_RUNTIME_CPU_PRIVATEFOLDER_H

#include <string>
#include <string_view>

namespace normc {
namespace cpu {

/// A folder in $TMPDIR (else /tmp) that only this user can enter, removed
/// with everything in it when the object goes. Throws CpuCompileError when
/// it cannot be made.
class PrivateFolder {
public:
  PrivateFolder();
  ~PrivateFolder();
  PrivateFolder(const PrivateFolder &) = delete;
  PrivateFolder &operator=(const PrivateFolder &) = delete;

  const std::string &path() const { return folder; }
  /// Writes `bytes` to `name` in the folder and returns the file's path.
  /// Throws CpuCompileError.
  std::string write(const std::string &name, std::string_view bytes) const;

private:
  std::string folder;
};

/// The bytes of the file at `path`. Throws CpuCompileError.
std::string readWholeFile(const std::string &path);

} // namespace cpu
} // namespace normc

#endif // NORMC_RUNTIME_CPU_PRIVATEFOLDER_H
