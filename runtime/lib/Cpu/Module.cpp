//===- Module.cpp - Compiling and loading emitted CUDA source for the CPU -===//
//
// The object's cache key covers everything that shapes it: the source, the
// compiler (name and the file it resolves to), every flag, and the
// contents of CpuCuda.h and CpuAbi.h. Files appear in the cache only by
// rename, so a concurrent process sees either nothing or a whole file.
//
//===----------------------------------------------------------------------===//

#include "normc/Abi/ReadFile.h"
#include "normc/Runtime/CpuDevice.h"
#include "normc/Runtime/DiskCache.h"

#include "../Cache/AtomicWrite.h"

#include "ContentHash.h"
#include "Hooks.h"
#include "HostCompiler.h"

#include <atomic>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <sstream>
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

/// The same root as every other normc cache (DiskCache.h).
std::string cacheRoot(const CompileOptions &options) {
  if (!options.cacheDir.empty())
    return options.cacheDir;
  std::string root = normc::cache::defaultCacheDir();
  if (root.empty())
    throw CpuCompileError("no cache directory for CPU kernels: set "
                          "NORMC_CACHE_DIR or HOME",
                          "");
  return root;
}

std::string readHeader(const std::string &path) {
  std::string text;
  if (std::optional<std::string> reason = normc::readFile(path, text))
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

/// A name no other thread or process uses for a temporary file.
std::string temporaryName(const std::string &path) {
  static std::atomic<unsigned> counter{0};
  return path + ".tmp." + std::to_string(::getpid()) + "." +
         std::to_string(counter++);
}

std::string commandLine(const std::vector<std::string> &argv) {
  std::string text;
  for (const std::string &arg : argv)
    text += (text.empty() ? "" : " ") + arg;
  return text;
}

/// Compiles `sourcePath` into `objectPath`.
void compileObject(const std::vector<std::string> &command,
                   const std::string &sourcePath,
                   const std::string &objectPath) {
  std::string temporary = temporaryName(objectPath);
  std::vector<std::string> argv = command;
  argv.insert(argv.end(), {"-o", temporary, sourcePath});
  ProcessResult result = runProcess(argv);
  std::error_code error;
  if (!result.started || result.exitStatus != 0) {
    fs::remove(temporary, error);
    std::string what = result.started ? "exited with status " +
                                            std::to_string(result.exitStatus)
                                      : "could not be started";
    throw CpuCompileError("compiling kernel source for the CPU failed: `" +
                              commandLine(argv) + "` " + what,
                          result.output);
  }
  fs::rename(temporary, objectPath, error);
  if (error) {
    fs::remove(temporary, error);
    throw CpuCompileError("cannot create " + objectPath, "");
  }
}

} // namespace

CpuModule::CpuModule(std::string path, std::shared_ptr<void> library, bool hit)
    : path(std::move(path)), library(std::move(library)), hit(hit) {}

CpuModule CpuModule::compile(const std::string &source,
                             const CompileOptions &options) {
  std::string compiler =
      options.compiler.empty() ? envOr("NORMC_CXX", "c++") : options.compiler;
  std::string headerDir =
      options.headerDir.empty()
          ? envOr("NORMC_CPU_HEADER_DIR", NORMC_CPU_HEADER_DIR)
          : options.headerDir;
  // -fno-strict-aliasing: CUDA code type-puns through reinterpret_cast
  // (vector loads into element arrays); the GPU compilers honour it, g++ -O2
  // would not. -Bsymbolic: a kernel binds to its own definitions even where
  // the host program exports a function of the same name.
  std::vector<std::string> command = {
      compiler,
      "-std=c++17",
      "-O2",
      "-fno-strict-aliasing",
      "-fPIC",
      "-shared",
      "-Wl,-Bsymbolic",
      "-DNORMC_CPU",
      "-include",
      headerDir + "/CpuCuda.h",
      "-I" + envOr("NORMC_CUDA_INCLUDE_DIR", NORMC_CPU_CUDA_INCLUDE_DIR)};
  command.insert(command.end(), options.extraFlags.begin(),
                 options.extraFlags.end());

  ContentHash key;
  key.add(source);
  key.add(compilerIdentity(compiler));
  for (const std::string &arg : command)
    key.add(arg);
  key.add(readHeader(headerDir + "/CpuCuda.h"));
  key.add(readHeader(headerDir + "/CpuAbi.h"));

  std::string dir = cacheRoot(options) + "/cpu";
  std::error_code error;
  fs::create_directories(dir, error);
  if (error)
    throw CpuCompileError("cannot create the cache directory " + dir + ": " +
                              error.message(),
                          "");
  std::string base = dir + "/" + key.hex();
  std::string objectPath = base + ".so";
  bool hit = fs::exists(objectPath, error);
  if (!hit) {
    if (!normc::cache::writeAtomically(base + ".cpp", {source}))
      throw CpuCompileError("cannot write " + base + ".cpp", "");
    compileObject(command, base + ".cpp", objectPath);
  }

  void *handle = ::dlopen(objectPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    throw CpuCompileError("cannot load " + objectPath + ": " + ::dlerror(), "");
  std::shared_ptr<void> library(handle, ::dlclose);
  auto bind = reinterpret_cast<int (*)(const Hooks *)>(
      ::dlsym(handle, "normc_cpu_bind"));
  if (!bind)
    throw CpuCompileError(objectPath + " was not compiled with CpuCuda.h", "");
  int version = bind(&executorHooks());
  if (version != kAbiVersion)
    throw CpuCompileError(objectPath + " was compiled for CPU ABI version " +
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
