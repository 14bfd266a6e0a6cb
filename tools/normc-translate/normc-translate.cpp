//===- normc-translate.cpp - kern IR to CUDA C++ --------------------------===//
//
// mlir-translate's shape for the one translation normc has, so the
// emitter's diagnostics are tested as the verifiers' are: with
// -verify-diagnostics and -split-input-file. No pass runs: the input is
// kern IR as kern-allocate-shared leaves it. The input is read
// through readBoundedMlir, as normc-opt reads it.
//
//===----------------------------------------------------------------------===//
#include "normc/Frontend/BoundedInput.h"
#include "normc/Frontend/Pipeline.h"
#include "normc/Target/Cuda/CudaEmitter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

static llvm::cl::opt<std::string> inputPath(llvm::cl::Positional,
                                            llvm::cl::desc("<input.mlir>"),
                                            llvm::cl::init("-"));
static llvm::cl::opt<std::string> outputPath("o", llvm::cl::desc("output"),
                                             llvm::cl::value_desc("file"),
                                             llvm::cl::init("-"));
static llvm::cl::opt<bool> verifyDiagnostics(
    "verify-diagnostics",
    llvm::cl::desc("check the diagnostics against expected-* comments"));
static llvm::cl::opt<bool>
    splitInputFile("split-input-file",
                   llvm::cl::desc("translate each '// -----' chunk apart"));

static LogicalResult translate(std::unique_ptr<llvm::MemoryBuffer> chunk,
                               llvm::raw_ostream &os) {
  DialectRegistry registry;
  normc::registerNormcDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // As mlir-opt: a diagnostic names its op, it does not print it.
  context.printOpOnDiagnostic(!verifyDiagnostics);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(chunk), llvm::SMLoc());
  auto emit = [&]() -> LogicalResult {
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (!module)
      return failure();
    return normc::emitCuda(*module, os);
  };
  if (!verifyDiagnostics) {
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    return emit();
  }
  SourceMgrDiagnosticVerifierHandler handler(sourceMgr, &context);
  (void)emit();
  return handler.verify();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "normc translation driver: kernel-level sched IR to CUDA\n");
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> text =
      normc::readBoundedMlir(inputPath, error);
  if (!text) {
    llvm::errs() << error << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> file =
      openOutputFile(outputPath, &error);
  if (!file) {
    llvm::errs() << "normc-translate: error: " << error << "\n";
    return 1;
  }
  LogicalResult result =
      splitInputFile
          ? splitAndProcessBuffer(std::move(text), translate, file->os(),
                                  kDefaultSplitMarker, kDefaultSplitMarker)
          : translate(std::move(text), file->os());
  if (failed(result))
    return 1;
  file->keep();
  return 0;
}
