//===- Signature.h - The arguments a caller passes to a program -----------===//
//
// Read off a program's kernel sequence (its launch facts), the signature is
// the only description of what a caller passes: every host (the C++ API,
// Python, `normc run` on either device, normc-pack-check, the benchmarks)
// allocates, checks, sizes and passes arguments from it, by name. A new input
// or output of the compiler reaches them all without a change to any.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_ABI_SIGNATURE_H
#define NORMC_ABI_SIGNATURE_H

#include "normc/Abi/KernelInfo.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace normc {

/// One argument of a program: a buffer parameter of its kernels, other than
/// the partial sums they exchange (a workspace the runtime provides).
struct Argument {
  /// One dimension of its shape.
  enum class Dim {
    Rows,   // the rows of the call
    D,      // the hidden size
    Groups, // ceil(d / groupSize), the groups of a row
    One     // a single element
  };
  std::string name;        // "x", "gamma", "y", "scale", "dx", ...
  std::string elementType; // as ElementType spells it: "bf16", "f32", ...
  std::vector<Dim> dims;
  int64_t groupSize = 0; // features per group, with Dim::Groups
  bool written = false;  // an output (else only read)
  bool strided = false;  // [rows, d] with a row stride the caller chooses

  /// Its shape for a call on [rows, d].
  std::vector<int64_t> shape(int64_t rows, int64_t d) const;
  /// Its elements for [rows, d] (a strided argument with row stride
  /// `rowStride`, 0 for d, spans (rows - 1) * rowStride + d of them);
  /// INT64_MAX where the count overflows.
  int64_t elements(int64_t rows, int64_t d, int64_t rowStride = 0) const;
  /// The bytes that hold elements(rows, d, rowStride), packed.
  int64_t bytes(int64_t rows, int64_t d, int64_t rowStride = 0) const;
  /// Whether its first dimension is the rows (so that with no rows it holds
  /// nothing and may be null).
  bool perRow() const { return !dims.empty() && dims.front() == Dim::Rows; }
};

/// A program's arguments in the order its kernels first name them.
using Signature = std::vector<Argument>;

/// The signature of a kernel sequence (in launch order).
Signature signatureOf(const std::vector<KernelLaunchInfo> &sequence);

/// The argument named `name`, or null.
const Argument *findArgument(const Signature &signature,
                             const std::string &name);

/// The names of a signature's inputs (written = false) or outputs, joined
/// by ", ".
std::string argumentNames(const Signature &signature, bool written);

/// How the names a call passes differ from a signature's: a name it does
/// not take, else an argument it lacks (null when none).
struct Mismatch {
  std::string extra;
  const Argument *missing = nullptr;
  size_t count = 0; // names given that it does not take, and arguments lacked

  bool fits() const { return count == 0; }
  /// "takes no argument 'z'", "needs 'gamma' [d] bf16", or "".
  std::string str() const;
};
Mismatch mismatchOf(const Signature &signature,
                    const std::set<std::string> &given);

/// Of several signatures (a spec's backward programs), the index of the
/// first that `given` fits, else of the nearest: the fewest mismatches, one
/// that lacks arguments before one given names it does not take.
size_t nearestSignature(const std::vector<const Signature *> &signatures,
                        const std::set<std::string> &given);

/// "[rows, d]", "[d]", "[rows, ceil(d / 32)]", "[1]".
std::string shapeText(const Argument &argument);

} // namespace normc

#endif // NORMC_ABI_SIGNATURE_H
