//===- SpecToNorm.h - Build the spec-level IR from a spec -----------------===//
#ifndef NORMC_FRONTEND_SPECTONORM_H
#define NORMC_FRONTEND_SPECTONORM_H

#include "normc/Dsl/Spec.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <optional>

namespace normc {

/// Builds a module holding one `norm.spec` for `spec`. `d` fixes d in the
/// types; without it d stays dynamic. Op locations point into the spec file
/// at the keys that decided them.
///
/// Inputs come first (x, residual, gamma, beta), outputs last (y,
/// residual_out, mean, rstd): that order is the kernel's argument order.
mlir::OwningOpRef<mlir::ModuleOp> buildSpecModule(const dsl::Spec &spec,
                                                  std::optional<int64_t> d,
                                                  mlir::MLIRContext &context);

} // namespace normc

#endif // NORMC_FRONTEND_SPECTONORM_H
