//===- SpecCompiler.cpp - From a spec to CUDA source in one call ----------===//
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Dialect/Sched/IR/SchedOps.h"
#include "normc/Frontend/SpecToNorm.h"
#include "normc/Abi/Version.h"
#include "normc/Target/Cuda/CudaEmitter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;

std::optional<normc::EmittedKernel>
normc::emitSpecKernel(const dsl::Spec &spec, std::optional<int64_t> cols,
                      const ScheduleOptions &schedule, std::string &errors) {
  DialectRegistry registry;
  registerNormcDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      llvm::raw_string_ostream os(errors);
      if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation()))
        os << loc.getFilename() << ":" << loc.getLine() << ":"
           << loc.getColumn() << ": ";
      os << "error: " << diag << "\n";
    }
    return success();
  });

  OwningOpRef<ModuleOp> module = buildSpecModule(spec, cols, context);
  if (failed(verify(*module)) || failed(lowerToSchedule(*module, schedule)))
    return std::nullopt;
  EmittedKernel kernel;
  llvm::raw_string_ostream os(kernel.source);
  if (failed(emitCuda(*module, os)))
    return std::nullopt;
  auto kernels = module->getOps<sched::KernelOp>();
  FailureOr<KernelLaunchInfo> info = getLaunchInfo(*kernels.begin());
  if (failed(info))
    return std::nullopt;
  kernel.info = std::move(*info);
  return kernel;
}

normc::ScheduleProblem normc::getScheduleProblem(const dsl::Spec &spec,
                                                 std::optional<int64_t> cols) {
  ScheduleProblem problem;
  problem.cols = cols;
  problem.widestBits = 8 * std::max(dsl::byteWidth(spec.input.value),
                                    dsl::byteWidth(spec.output.value));
  if (spec.gain.value || spec.bias.value)
    problem.widestBits =
        std::max(problem.widestBits, 8 * dsl::byteWidth(spec.params.value));
  return problem;
}

std::optional<normc::Pack> normc::buildPack(const dsl::Spec &spec,
                                            std::optional<int64_t> cols,
                                            std::string &errors) {
  Pack pack;
  pack.normcVersion = kVersion;
  pack.specToml = spec.canonical();
  pack.cols = cols;
  for (const Schedule &schedule :
       scheduleCandidates(getScheduleProblem(spec, cols))) {
    std::string rejected;
    std::optional<EmittedKernel> kernel =
        emitSpecKernel(spec, cols, schedule, rejected);
    if (kernel)
      pack.candidates.push_back(
          {schedule, std::move(kernel->source), std::move(kernel->info)});
    else
      errors += schedule.str() + ": " + rejected;
  }
  if (pack.candidates.empty())
    return std::nullopt;
  return pack;
}
