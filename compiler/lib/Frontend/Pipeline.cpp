//===- Pipeline.cpp - The normc compilation pipeline ----------------------===//
#include "normc/Frontend/Pipeline.h"
#include "normc/Conversion/Passes.h"
#include "normc/Dialect/Kern/Transforms/Passes.h"
#include "normc/Dialect/Norm/IR/NormOps.h"
#include "normc/Dialect/Norm/Transforms/Passes.h"
#include "normc/Dialect/Sched/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void normc::registerNormcDialects(DialectRegistry &registry) {
  registry.insert<norm::NormDialect, sched::SchedDialect, kern::KernDialect,
                  arith::ArithDialect, math::MathDialect>();
}

void normc::registerNormcPasses() {
  norm::registerNormcNormPasses();
  registerNormcConversionPasses();
  sched::registerNormcSchedPasses();
  kern::registerNormcKernPasses();
}

normc::IRLevel normc::getIRLevel(ModuleOp module) {
  if (!module.getOps<norm::SpecOp>().empty())
    return IRLevel::Spec;
  if (!module.getOps<sched::KernelOp>().empty())
    return IRLevel::Rows;
  if (!module.getOps<kern::KernelOp>().empty())
    return IRLevel::Kernel;
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
  // Options given on the command line win over a schedule already in IR.
  bool overwrite = !options.empty();
  // A kernel-level kernel is built for its schedule.
  if (overwrite)
    for (auto kernel : module.getOps<kern::KernelOp>())
      return kernel.emitOpError("is at the kernel level; its schedule cannot "
                                "change");
  return sched::assignSchedules(module, options, options.arch, overwrite);
}

LogicalResult normc::lowerToLoops(ModuleOp module) {
  PassManager pm(module.getContext());
  pm.addPass(createConvertSchedToKern());
  pm.addPass(createCSEPass());
  pm.addPass(kern::createKernAsyncCopies());
  pm.addPass(kern::createKernAllocateShared());
  return pm.run(module);
}

LogicalResult normc::lowerToSchedule(ModuleOp module,
                                     const ScheduleOptions &options) {
  if (getIRLevel(module) == IRLevel::Spec && failed(lowerToRows(module)))
    return failure();
  return failure(failed(assignSchedules(module, options)) ||
                 failed(lowerToLoops(module)));
}
