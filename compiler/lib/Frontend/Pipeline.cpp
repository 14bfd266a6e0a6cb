//===- Pipeline.cpp - The normc compilation pipeline ----------------------===//
#include "normc/Frontend/Pipeline.h"
#include "normc/Conversion/Passes.h"
#include "normc/Dialect/Norm/IR/NormOps.h"
#include "normc/Dialect/Norm/Transforms/Passes.h"
#include "normc/Dialect/Sched/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void normc::registerNormcDialects(DialectRegistry &registry) {
  registry.insert<norm::NormDialect, sched::SchedDialect, arith::ArithDialect,
                  math::MathDialect>();
}

void normc::registerNormcPasses() {
  norm::registerNormcNormPasses();
  registerNormcConversionPasses();
  sched::registerNormcSchedPasses();
}

normc::IRLevel normc::getIRLevel(ModuleOp module) {
  if (!module.getOps<norm::SpecOp>().empty())
    return IRLevel::Spec;
  for (sched::KernelOp kernel : module.getOps<sched::KernelOp>())
    return kernel.isLowered() ? IRLevel::Kernel : IRLevel::Rows;
  return IRLevel::Empty;
}

LogicalResult normc::deriveProgram(ModuleOp module, const Program &program) {
  if (!program.backward)
    return success();
  PassManager pm(module.getContext());
  norm::NormDeriveBackwardOptions options;
  options.savedStats = program.savedStats;
  options.dresidualOut = program.dresidualOut;
  pm.addPass(norm::createNormDeriveBackward(options));
  return pm.run(module);
}

LogicalResult normc::lowerToRows(ModuleOp module) {
  PassManager pm(module.getContext());
  pm.addPass(createConvertNormToSched());
  pm.addPass(createCSEPass());
  return pm.run(module);
}

LogicalResult normc::assignSchedules(ModuleOp module,
                                     const ScheduleOptions &options) {
  PassManager pm(module.getContext());
  sched::SchedAssignScheduleOptions assign;
  assign.rowsPerBlock = options.rowsPerBlock;
  assign.threadsPerRow = options.threadsPerRow;
  assign.vectorWidth = options.vectorWidth;
  assign.rowStorage =
      options.rowStorage ? std::string(toString(*options.rowStorage)) : "";
  bool cluster = options.strategy == Strategy::Cluster;
  assign.strategy = cluster ? std::string(toString(options.strategy)) : "";
  assign.clusterSize = cluster ? options.clusterSize : 0;
  assign.arch = options.arch;
  // Options given on the command line win over a schedule already in IR.
  assign.overwrite = options.rowsPerBlock || options.threadsPerRow ||
                     options.vectorWidth || options.rowStorage || cluster;
  pm.addPass(sched::createSchedAssignSchedule(assign));
  return pm.run(module);
}

LogicalResult normc::lowerToLoops(ModuleOp module) {
  PassManager pm(module.getContext());
  pm.addPass(sched::createSchedLowerToLoops());
  pm.addPass(createCSEPass());
  pm.addPass(sched::createSchedAsyncCopies());
  pm.addPass(sched::createSchedAllocateShared());
  return pm.run(module);
}

LogicalResult normc::lowerToSchedule(ModuleOp module,
                                     const ScheduleOptions &options) {
  if (getIRLevel(module) == IRLevel::Spec && failed(lowerToRows(module)))
    return failure();
  return failure(failed(assignSchedules(module, options)) ||
                 failed(lowerToLoops(module)));
}
