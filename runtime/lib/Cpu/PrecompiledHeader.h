//===- PrecompiledHeader.h - CpuCuda.h parsed once, not once a kernel -----===//
//
// Most of the time the host compiler takes over a kernel goes into parsing
// the force-included CpuCuda.h and the toolkit's bf16, f16 and fp8 headers
// it includes. GCC loads a header precompiled instead when a `.gch` of it,
// built with the same compiler and flags, lies beside the file that
// `-include` names, and parses the header itself when the `.gch` does not
// fit. So CpuCuda.h is precompiled once per (compiler, flags, contents of
// CpuCuda.h and CpuAbi.h) and kept as an entry of the kernel cache
// (<root>/cpu/), checked on every read like any object there: a torn,
// corrupt or foreign entry is built anew, never used. A process uses it
// from a private folder that holds the `.gch` next to its own copies of the
// headers, so that what the compiler reads is what was checked. The object
// is the same, byte for byte, with or without it.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_CPU_PRECOMPILEDHEADER_H
#define NORMC_RUNTIME_CPU_PRECOMPILEDHEADER_H

#include "PrivateFolder.h"

#include "normc/Runtime/Cache/DiskCache.h"
#include "normc/Runtime/Cpu/CpuDevice.h"

#include <memory>
#include <string>
#include <vector>

namespace normc {
namespace cpu {

/// CpuCuda.h and CpuAbi.h: where they are and what they say.
struct KernelHeaders {
  std::string dir;
  std::string cpuCuda;
  std::string cpuAbi;
};

/// What the precompiled header depends on.
struct PrecompileRequest {
  /// The compiler and the flags of a kernel's compile that shape how it
  /// parses (language, optimization, definitions, include paths, sanitizers),
  /// without -include, linking or output options.
  std::vector<std::string> flags;
  /// Identifies the compiler binary, so that an upgrade rebuilds.
  std::string compilerIdentity;
  KernelHeaders headers;

  /// The cache key of the precompiled header.
  std::string key() const;
};

/// The request of a kernel's compile with `options` (Module.cpp). Throws
/// CpuCompileError when the headers cannot be read.
PrecompileRequest precompileRequest(const CompileOptions &options);

/// A private folder holding copies of CpuCuda.h and CpuAbi.h.
std::unique_ptr<PrivateFolder> copyHeaders(const KernelHeaders &headers);

/// The precompiled header from `cache`, or else built from the copy of
/// CpuCuda.h in `folder` (copyHeaders), left beside it as CpuCuda.h.gch and
/// stored in the cache: the bytes of a GCC `.gch`, or "" where the compiler
/// makes none that GCC's `-include` lookup takes (clang, or a failed build;
/// the empty entry is stored too, so that each process does not try again).
/// `built` says whether the compiler ran. Throws CpuCompileError.
std::string loadOrPrecompile(const PrecompileRequest &request,
                             const cache::DiskCache &cache,
                             const PrivateFolder &folder, bool &built);

/// The file a kernel's compile names with `-include`: a private copy of
/// CpuCuda.h with its precompiled header beside it, made once per process
/// and request, or the header itself where there is no precompiled header.
/// Safe to call from several threads at once.
std::string forcedInclude(const PrecompileRequest &request,
                          const cache::DiskCache &cache);

} // namespace cpu
} // namespace normc

#endif // NORMC_RUNTIME_CPU_PRECOMPILEDHEADER_H
