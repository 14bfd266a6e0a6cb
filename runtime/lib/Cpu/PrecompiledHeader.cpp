//===- PrecompiledHeader.cpp - CpuCuda.h parsed once, not once a kernel ---===//

#include "PrecompiledHeader.h"

#include "ContentHash.h"
#include "HostCompiler.h"

#include "normc/Runtime/Cpu/CpuDevice.h"

#include <map>
#include <memory>
#include <mutex>

using namespace normc::cpu;

namespace {

/// The first bytes of every precompiled header GCC writes.
constexpr std::string_view kGccMagic = "gpch";

bool isGccPrecompiledHeader(const std::string &bytes) {
  return bytes.compare(0, kGccMagic.size(), kGccMagic) == 0;
}

/// Runs the compiler over the copy of CpuCuda.h in `folder`, leaving the
/// `.gch` beside it; its bytes, or "" when it fails or writes something
/// else.
std::string precompile(const PrecompileRequest &request,
                       const PrivateFolder &folder) {
  std::vector<std::string> argv = request.flags;
  std::string output = folder.path() + "/CpuCuda.h.gch";
  argv.insert(argv.end(),
              {"-x", "c++-header", folder.path() + "/CpuCuda.h", "-o", output});
  ProcessResult result = runProcess(argv);
  if (!result.started || result.exitStatus != 0)
    return "";
  std::string bytes = readWholeFile(output);
  return isGccPrecompiledHeader(bytes) ? bytes : "";
}

/// What one process made of one request: the file to -include, and the
/// folder that holds it (null when it is the header itself).
struct Prepared {
  std::once_flag once;
  std::string include;
  std::unique_ptr<PrivateFolder> folder;
};

} // namespace

std::string PrecompileRequest::key() const {
  ContentHash hash;
  hash.add("precompiled CpuCuda.h");
  hash.add(compilerIdentity);
  for (const std::string &flag : flags)
    hash.add(flag);
  hash.add(headers.cpuCuda);
  hash.add(headers.cpuAbi);
  return hash.hex();
}

std::string normc::cpu::loadOrPrecompile(const PrecompileRequest &request,
                                         const cache::DiskCache &cache,
                                         const PrivateFolder &folder,
                                         bool &built) {
  std::string key = request.key();
  std::optional<std::string> entry = cache.get(key);
  built = !entry || (!entry->empty() && !isGccPrecompiledHeader(*entry));
  if (!built)
    return *entry;
  std::string bytes = precompile(request, folder);
  cache.put(key, bytes);
  return bytes;
}

std::unique_ptr<PrivateFolder>
normc::cpu::copyHeaders(const KernelHeaders &headers) {
  auto folder = std::make_unique<PrivateFolder>();
  folder->write("CpuCuda.h", headers.cpuCuda);
  folder->write("CpuAbi.h", headers.cpuAbi);
  return folder;
}

std::string normc::cpu::forcedInclude(const PrecompileRequest &request,
                                      const cache::DiskCache &cache) {
  // Kept for the life of the process: later kernels with the same flags
  // read the same folder. Its removal at exit is the folder's destructor.
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<Prepared>> prepared;
  std::shared_ptr<Prepared> slot;
  {
    std::lock_guard<std::mutex> lock(mutex);
    std::shared_ptr<Prepared> &entry = prepared[request.key()];
    if (!entry)
      entry = std::make_shared<Prepared>();
    slot = entry;
  }
  std::call_once(slot->once, [&] {
    std::string fallback = request.headers.dir + "/CpuCuda.h";
    try {
      std::unique_ptr<PrivateFolder> folder = copyHeaders(request.headers);
      bool built = false;
      std::string bytes = loadOrPrecompile(request, cache, *folder, built);
      if (bytes.empty()) {
        slot->include = fallback;
        return;
      }
      if (!built)
        folder->write("CpuCuda.h.gch", bytes);
      slot->include = folder->path() + "/CpuCuda.h";
      slot->folder = std::move(folder);
    } catch (const CpuCompileError &) {
      // No private folder: the kernel's compile parses the header itself
      // (and reports the same problem if it cannot work either).
      slot->include = fallback;
    }
  });
  return slot->include;
}
