//===- PrivateFolder.cpp - A temporary folder only this process uses ------===//

#include "PrivateFolder.h"

#include "normc/Abi/ReadFile.h"
#include "normc/Runtime/CpuDevice.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

using namespace normc::cpu;

namespace {

std::string temporaryRoot() {
  const char *value = std::getenv("TMPDIR");
  return value && *value ? value : "/tmp";
}

/// Kernel objects and precompiled headers are well under this.
constexpr uint64_t kMaxFileBytes = 1 << 30;

} // namespace

PrivateFolder::PrivateFolder() {
  std::string base = temporaryRoot() + "/normc-cpu-XXXXXX";
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
