//===- Pack.h - Kernel packs: every candidate of a spec, ready to ship ----===//
//
// `normc compile --emit=pack -o DIR` writes the CUDA source of every
// schedule candidate of a spec and a manifest, so that a runtime built
// without LLVM can tune and launch the spec. Layout of DIR:
//
//   manifest.txt     "normc-pack 2", the normc version, d, and per
//                    candidate "candidate FILE SCHEDULE", "program PROGRAM"
//                    (forward when absent) and one "info ..." line per
//                    kernel, in launch order
//   spec.toml        the canonical spec
//   candidate-N.cu   emitted CUDA source
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_RUNTIME_PACK_H
#define NORMC_RUNTIME_PACK_H

#include "normc/Abi/KernelInfo.h"
#include "normc/Abi/Program.h"
#include "normc/Abi/Schedule.h"

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace normc {

struct PackCandidate {
  Schedule schedule;
  std::string source;
  std::vector<KernelLaunchInfo> kernels; // in launch order
  Program program;
};

struct Pack {
  std::string normcVersion;
  std::string specToml;     // canonical
  std::optional<int64_t> d; // d the kernels are specialized for
  std::vector<PackCandidate> candidates;
};

class PackError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Writes the pack into `dir` as a whole: into a fresh folder next to it,
/// then renamed into place (replacing an earlier pack there). Throws
/// PackError; on failure `dir` is left as it was.
void writePack(const std::string &dir, const Pack &pack);

/// Reads and checks a pack; errors name the file and line. The manifest is
/// data and is checked against the kernels it describes (every number
/// whole and in range, each kernel's parameter list the one its source
/// declares, every candidate of a program taking the same arguments); the
/// sources are code, trusted as a shared library is (docs/hostile-input.md).
Pack readPack(const std::string &dir);

/// readPack of a manifest's text, the files it names read by
/// `readPackFile` (which throws PackError); `manifestPath` names it in
/// errors. What readPack and the manifest fuzzer share.
Pack parsePack(
    const std::string &manifestText, const std::string &manifestPath,
    const std::function<std::string(const std::string &file)> &readPackFile);

} // namespace normc

#endif // NORMC_RUNTIME_PACK_H
