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

/// Why `name` cannot name a kernel or a kernel parameter in emitted CUDA, or
/// empty when it can.
std::string checkEmittedName(std::string_view name);

} // namespace normc

#endif // NORMC_ABI_RESERVEDNAMES_H
