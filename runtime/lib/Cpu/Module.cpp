//===- Module.cpp - Compiling and loading emitted CUDA source for the CPU -===//
//
// The object's cache key covers everything that shapes it: the source, the
// compiler (name and the file it resolves to), every flag, and the
// contents of CpuCuda.h and CpuAbi.h. Objects are DiskCache entries, so a
// truncated, corrupt, misplaced or foreign one is never loaded; it is
// compiled in a private folder and loaded from a private copy. CpuCuda.h is
// read precompiled where the compiler can (PrecompiledHeader.h), which
// leaves the object as it is.
//
//===----------------------------------------------------------------------===//

#include "normc/Abi/EnvironmentSwitch.h"
#include "normc/Abi/ReadFile.h"
#include "normc/Runtime/Cache/DiskCache.h"
#include "normc/Runtime/Cpu/CpuDevice.h"

#include "../Cache/AtomicWrite.h"

#include "ContentHash.h"
#include "Hooks.h"
#include "HostCompiler.h"
#include "PrecompiledHeader.h"
#include "PrivateFolder.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef NORMC_CPU_HEADER_DIR
#error "define NORMC_CPU_HEADER_DIR as the directory of CpuCuda.h"
#endif
#ifndef NORMC_CPU_CUDA_INCLUDE_DIR
#define NORMC_CPU_CUDA_INCLUDE_DIR "/usr/local/cuda/include"
#endif

using namespace normc::cpu;
namespace fs = std::filesystem;

CpuCompileError::CpuCompileError(const std::string &message,
                                 std::string compilerOutput)
    : std::runtime_error(
          compilerOutput.empty() ? message : message + "\n" + compilerOutput),
      output(std::move(compilerOutput)) {}

namespace {

std::string envOr(const char *name, const std::string &fallback) {
  const char *value = std::getenv(name);
  return value && *value ? value : fallback;
}

/// Headers and objects are well under this.
constexpr uint64_t kMaxFileBytes = 1 << 30;

std::string readHeader(const std::string &path) {
  std::string text;
  if (std::optional<std::string> reason =
          normc::readFile(path, text, kMaxFileBytes))
    throw CpuCompileError("cannot read " + path + ": " + *reason +
                              " (set NORMC_CPU_HEADER_DIR to the directory "
                              "of CpuCuda.h)",
                          "");
  return text;
}

/// Identifies the compiler binary itself, so that an upgrade invalidates
/// the cache, without running it.
std::string compilerIdentity(const std::string &compiler) {
  std::string path = findProgram(compiler);
  struct stat info;
  if (path.empty() || ::stat(path.c_str(), &info) != 0)
    return "unresolved";
  return path + ":" + std::to_string(info.st_size) + ":" +
         std::to_string(info.st_mtim.tv_sec) + "." +
         std::to_string(info.st_mtim.tv_nsec);
}

std::string commandLine(const std::vector<std::string> &argv) {
  std::string text;
  for (const std::string &arg : argv)
    text += (text.empty() ? "" : " ") + arg;
  return text;
}

/// `#line 1 "path"` naming `path` for diagnostics, its quotes and
/// backslashes escaped; nothing for a path a string literal cannot hold.
std::string lineDirective(const std::string &path) {
  if (path.empty() || path.find('\n') != std::string::npos)
    return "";
  std::string escaped;
  for (char c : path)
    escaped +=
        c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return "#line 1 \"" + escaped + "\"\n";
}

/// Compiles `source` in a private folder and returns the object's bytes.
/// Diagnostics (the compiler's and the CPU device's) name `shownPath`, a
/// copy of the source kept for people to read, when there is one.
std::string compileObject(const std::vector<std::string> &command,
                          const std::string &source,
                          const std::string &shownPath) {
  PrivateFolder folder;
  std::string sourcePath =
                  folder.write("kernel.cpp", lineDirective(shownPath) + source),
              objectPath = folder.path() + "/kernel.so";
  std::vector<std::string> argv = command;
  argv.insert(argv.end(), {"-o", objectPath, sourcePath});
  ProcessResult result = runProcess(argv);
  if (!result.started || result.exitStatus != 0) {
    std::string what = result.started ? "exited with status " +
                                            std::to_string(result.exitStatus)
                                      : "could not be started";
    throw CpuCompileError("compiling kernel source for the CPU failed: `" +
                              commandLine(argv) + "` " + what,
                          result.output);
  }
  return readWholeFile(objectPath);
}

/// dlopen of a private copy of `object`: an anonymous memory file where
/// the system has them, else a file in a private folder. What is loaded is
/// what was checked; no file another process can change is opened. The
/// memory file stays open while the library is loaded: dlopen knows a
/// library by its path, and /proc/self/fd/N must not name two of them.
std::shared_ptr<void> loadObject(const std::string &object) {
  int fd = ::memfd_create("normc-cpu-kernel", MFD_CLOEXEC);
  if (fd >= 0) {
    bool written = true;
    for (size_t done = 0; written && done < object.size();) {
      ssize_t n = ::write(fd, object.data() + done, object.size() - done);
      written = n > 0 || (n < 0 && errno == EINTR);
      done += n > 0 ? size_t(n) : 0;
    }
    std::string path = "/proc/self/fd/" + std::to_string(fd);
    if (void *handle =
            written ? ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL) : nullptr)
      return std::shared_ptr<void>(handle, [fd](void *h) {
        ::dlclose(h);
        ::close(fd);
      });
    ::close(fd);
  }
  PrivateFolder folder;
  std::string path = folder.write("kernel.so", object);
  void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    throw CpuCompileError(
        std::string("cannot load a kernel object: ") + ::dlerror(), "");
  return std::shared_ptr<void>(handle, ::dlclose);
}

} // namespace

CpuModule::CpuModule(std::string path, std::shared_ptr<void> library, bool hit)
    : path(std::move(path)), library(std::move(library)), hit(hit) {}

PrecompileRequest normc::cpu::precompileRequest(const CompileOptions &options) {
  std::string compiler =
      options.compiler.empty() ? envOr("NORMC_CXX", "c++") : options.compiler;
  std::string headerDir =
      options.headerDir.empty()
          ? envOr("NORMC_CPU_HEADER_DIR", NORMC_CPU_HEADER_DIR)
          : options.headerDir;
  // -fno-strict-aliasing: CUDA code type-puns through reinterpret_cast
  // (vector loads into element arrays); the GPU compilers honour it, g++ -O2
  // would not.
  PrecompileRequest request;
  request.flags = {
      compiler,
      "-std=c++17",
      "-O2",
      "-fno-strict-aliasing",
      "-fPIC",
      "-DNORMC_CPU",
      "-I" + envOr("NORMC_CUDA_INCLUDE_DIR", NORMC_CPU_CUDA_INCLUDE_DIR)};
  request.flags.insert(request.flags.end(), options.extraFlags.begin(),
                       options.extraFlags.end());
  // After the extra flags, so none can undo them: the IR's roundings and no
  // others, as NVRTC compiles them (nvrtc::fixedOptions): no contraction
  // into fma, IEEE arithmetic.
  request.flags.insert(request.flags.end(),
                       {"-ffp-contract=off", "-fno-fast-math"});
  request.compilerIdentity = compilerIdentity(compiler);
  request.headers = {headerDir, readHeader(headerDir + "/CpuCuda.h"),
                     readHeader(headerDir + "/CpuAbi.h")};
  return request;
}

CpuModule CpuModule::compile(const std::string &source,
                             const CompileOptions &options) {
  PrecompileRequest header = precompileRequest(options);
  // -Bsymbolic: a kernel binds to its own definitions even where the host
  // program exports a function of the same name.
  std::vector<std::string> command = header.flags;
  command.insert(command.end(), {"-shared", "-Wl,-Bsymbolic", "-include",
                                 header.headers.dir + "/CpuCuda.h"});

  ContentHash key;
  key.add(source);
  key.add(header.compilerIdentity);
  for (const std::string &arg : command)
    key.add(arg);
  key.add(header.headers.cpuCuda);
  key.add(header.headers.cpuAbi);

  // Objects are entries of the shared cache (checked before use, see
  // DiskCache.h); their sources are kept beside them for diagnostics.
  normc::cache::DiskCache cache(options.cacheDir, "cpu");
  std::string entry = key.hex();
  std::optional<std::string> object = cache.get(entry);
  bool hit = object.has_value();
  // The entry, and its source beside it (<key>.bin, <key>.cpp).
  std::string objectPath = cache.problem() ? "" : cache.pathFor(entry);
  if (!hit) {
    std::string shown =
        objectPath.empty()
            ? ""
            : objectPath.substr(0, objectPath.size() - 4) + ".cpp";
    if (options.precompiledHeader &&
        environmentSwitch("NORMC_CPU_PCH").value_or(true))
      command.back() = forcedInclude(header, cache);
    object = compileObject(command, source, shown);
    if (cache.put(entry, *object)) // the entry's folder exists now
      normc::cache::writeAtomically(shown, {source});
  }
  std::shared_ptr<void> library = loadObject(*object);
  void *handle = library.get();
  auto bind = reinterpret_cast<int (*)(const Hooks *)>(
      ::dlsym(handle, "normc_cpu_bind"));
  if (!bind)
    throw CpuCompileError("the kernel object was not compiled with CpuCuda.h",
                          "");
  int version = bind(&executorHooks());
  if (version != kAbiVersion)
    throw CpuCompileError(
        "the kernel object was compiled for CPU ABI version " +
            std::to_string(version) + ", this executor has " +
            std::to_string(kAbiVersion),
        "");
  return CpuModule(objectPath, std::move(library), hit);
}

CpuKernel CpuModule::kernel(const std::string &name) const {
  std::string symbol = "normc_cpu_entry_" + name;
  void *entry = ::dlsym(library.get(), symbol.c_str());
  if (!entry)
    throw CpuLaunchError("no kernel '" + name + "' in " + path + " (" + symbol +
                         " is missing)");
  return CpuKernel{name, reinterpret_cast<KernelEntry>(entry), library};
}
