//===- MutatedIR.h - Kernels of a spec's IR, edited on purpose ------------===//
//
// The norm-level IR of a spec's program, changed by a mutation, written to
// a file as hand-edited IR would come, then lowered, emitted and compiled
// for the CPU device like any other: the mutation tests grade what it
// computes.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_TESTS_NUMERICS_MUTATEDIR_H
#define NORMC_TESTS_NUMERICS_MUTATEDIR_H

#include "normc/Abi/Program.h"
#include "normc/Dsl/Spec.h"
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Runtime/Cpu/CpuDevice.h"

#include "mlir/IR/BuiltinOps.h"

#include <functional>

namespace normc::test {

using Mutation = std::function<void(mlir::ModuleOp)>;

struct MutatedKernels {
  EmittedModule emitted;
  cpu::CpuModule module;
};

/// The kernels of `program` for `spec` at d, with `mutate` (if any)
/// applied to the norm-level IR first (after the backward's derivation).
MutatedKernels compileMutated(const dsl::Spec &spec, const Program &program,
                              int64_t d, const Mutation &mutate);

} // namespace normc::test

#endif // NORMC_TESTS_NUMERICS_MUTATEDIR_H
