//===- ScalarOps.h - The arith and math ops a kernel may hold -------------===//
//
// One table for the scalar ops of kernel bodies: the kernel verifier admits
// exactly the ops it lists, and the CUDA emitter prints each as it says.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_DIALECT_SCHED_IR_SCALAROPS_H
#define NORMC_DIALECT_SCHED_IR_SCALAROPS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace normc::sched {

/// How a scalar op is written in CUDA.
struct ScalarForm {
  enum class Kind {
    Constant, // its value, as a literal of its type
    Infix,    // operand 0, `spelling`, operand 1
    Call,     // `spelling`(operands...), a function of the support library
    Convert,  // operand 0 rounded to the result type
    Select,   // operand 0 ? operand 1 : operand 2
  };
  Kind kind;
  llvm::StringLiteral spelling = "";
};

/// The form of `op`, or nullopt when `op` is no scalar op a kernel may hold.
std::optional<ScalarForm> getScalarForm(mlir::Operation *op);

} // namespace normc::sched

#endif // NORMC_DIALECT_SCHED_IR_SCALAROPS_H
