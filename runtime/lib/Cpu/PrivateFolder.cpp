//===- PrivateFolder.cpp - A temporary folder only this process uses ------===//

#include "PrivateFolder.h"

#include "normc/Abi/Number.h"
#include "normc/Abi/ReadFile.h"
#include "normc/Runtime/Cpu/CpuDevice.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <vector>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace normc::cpu;

namespace {

std::string temporaryRoot() {
  const char *value = std::getenv("TMPDIR");
  return value && *value ? value : "/tmp";
}

/// Kernel objects and precompiled headers are well under this.
constexpr uint64_t kMaxFileBytes = 1 << 30;

constexpr char kPrefix[] = "normc-cpu-";

/// Removes the private folders of this user's processes that are gone (a
/// normc killed outright cannot remove its own): each folder's name holds
/// the id of the process that made it.
void removeFoldersOfDeadProcesses() {
  std::error_code ec;
  std::vector<std::filesystem::path> stale;
  for (std::filesystem::directory_iterator it(temporaryRoot(), ec), end;
       !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.rfind(kPrefix, 0) != 0)
      continue;
    size_t dash = name.find('-', sizeof kPrefix - 1);
    std::optional<int64_t> pid =
        normc::parseWholeNumber(std::string_view(name).substr(
            sizeof kPrefix - 1, dash - (sizeof kPrefix - 1)));
    struct stat status;
    if (dash == std::string::npos || !pid || *pid <= 0 ||
        ::lstat(it->path().c_str(), &status) != 0 || !S_ISDIR(status.st_mode) ||
        status.st_uid != ::getuid())
      continue;
    if (::kill(static_cast<pid_t>(*pid), 0) != 0 && errno == ESRCH)
      stale.push_back(it->path());
  }
  for (const std::filesystem::path &folder : stale)
    std::filesystem::remove_all(folder, ec);
}

} // namespace

PrivateFolder::PrivateFolder() {
  static std::once_flag swept;
  std::call_once(swept, removeFoldersOfDeadProcesses);
  std::string base =
      temporaryRoot() + "/" + kPrefix + std::to_string(::getpid()) + "-XXXXXX";
  std::vector<char> name(base.begin(), base.end());
  name.push_back('\0');
  if (!::mkdtemp(name.data()))
    throw CpuCompileError("cannot create a private folder in " +
                              temporaryRoot() + ": " + std::strerror(errno),
                          "");
  folder = name.data();
}

PrivateFolder::~PrivateFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
}

std::string PrivateFolder::write(const std::string &name,
                                 std::string_view bytes) const {
  std::string path = folder + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush())
    throw CpuCompileError("cannot write " + path, "");
  return path;
}

std::string normc::cpu::readWholeFile(const std::string &path) {
  std::string bytes;
  if (std::optional<std::string> reason =
          normc::readFile(path, bytes, kMaxFileBytes))
    throw CpuCompileError("cannot read " + path + ": " + *reason, "");
  return bytes;
}
