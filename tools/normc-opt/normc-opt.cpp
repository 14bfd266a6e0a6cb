//===- normc-opt.cpp - The MLIR opt driver for normc's dialects -----------===//
#include "normc/Frontend/Pipeline.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  normc::registerNormcDialects(registry);
  registry.insert<mlir::func::FuncDialect>();
  normc::registerNormcPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "normc optimizer driver: the norm and sched dialects\n",
      registry));
}
