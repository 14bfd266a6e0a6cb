//===- ReservedNames.h - Names an emitted kernel may use ------------------===//
//
// Spec names become kernel symbols and buffer names become parameters of the
// emitted CUDA. One table, shared by the spec front end and the sched
// dialect's verifiers, says which names cannot be used: C++ keywords, names
// the language reserves, what CUDA's headers and the emitted support code
// declare, and the locals the emitter makes.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_ABI_RESERVEDNAMES_H
#define NORMC_ABI_RESERVEDNAMES_H

#include <string>
#include <string_view>

namespace normc {

/// [A-Za-z_][A-Za-z0-9_]*
bool isCIdentifier(std::string_view name);

/// What a name becomes in the emitted CUDA.
enum class EmittedName {
  Kernel,    // a global function: a spec's name, a sched.kernel's symbol
  Parameter, // a kernel parameter: a sched.buffer's name
};

/// Why `name` cannot be used as `kind` in emitted CUDA, or empty when it
/// can. Parameters also may not shadow the locals the emitter makes.
std::string checkEmittedName(std::string_view name, EmittedName kind);

} // namespace normc

#endif // NORMC_ABI_RESERVEDNAMES_H
