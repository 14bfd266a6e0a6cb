//===- BoundedInput.h - .mlir inputs that cannot exhaust the process ------===//
//
// MLIR's parser recurses once per level of nesting and reads whatever it is
// given: an endless file (/dev/zero) eats memory and a deeply nested one
// overflows the stack. Every .mlir input of normc and normc-opt is read
// through here first, so such input gets an error instead.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_FRONTEND_BOUNDEDINPUT_H
#define NORMC_FRONTEND_BOUNDEDINPUT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <memory>
#include <string>

namespace normc {

/// The most bytes an .mlir input may hold (normc's kernels are a few
/// hundred kilobytes at most).
constexpr uint64_t kMaxMlirBytes = 64 << 20;
/// The deepest nesting of brackets ((), [], {}, <>) an .mlir input may have.
constexpr unsigned kMaxMlirNesting = 256;

/// Reads `path` ("-": standard input) checked against the bounds above; on
/// failure returns null and sets `error` to a message in the compiler
/// format ("path:line:col: error: ..." where there is a position).
std::unique_ptr<llvm::MemoryBuffer> readBoundedMlir(const std::string &path,
                                                    std::string &error);

/// The module in `path`, read through readBoundedMlir into `sourceMgr` and
/// parsed; null on failure, with `error` set when the read failed (parse
/// errors go to the context's diagnostic handler).
mlir::OwningOpRef<mlir::ModuleOp>
parseBoundedMlir(const std::string &path, llvm::SourceMgr &sourceMgr,
                 const mlir::ParserConfig &config, std::string &error);

} // namespace normc

#endif // NORMC_FRONTEND_BOUNDEDINPUT_H
