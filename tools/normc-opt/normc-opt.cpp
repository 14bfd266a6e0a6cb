//===- normc-opt.cpp - The MLIR opt driver for normc's dialects -----------===//
//
// mlir-opt's driver, with the input read through readBoundedMlir first: an
// endless or deeply nested file gets an error, not an exhausted process.
//
//===----------------------------------------------------------------------===//
#include "normc/Frontend/BoundedInput.h"
#include "normc/Frontend/Pipeline.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::DialectRegistry registry;
  normc::registerNormcDialects(registry);
  registry.insert<mlir::func::FuncDialect>();
  normc::registerNormcPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "normc optimizer driver: the norm and sched dialects\n",
      registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // Listing dialects or passes reads no input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, input, output, registry));
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> text =
      normc::readBoundedMlir(input, error);
  if (!text) {
    llvm::errs() << error << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> file =
      mlir::openOutputFile(output, &error);
  if (!file) {
    llvm::errs() << "normc-opt: error: " << error << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(file->os(), std::move(text), registry, config)))
    return 1;
  file->keep();
  return 0;
}
