//===- SpecCompiler.cpp - From a spec to CUDA source ----------------------===//
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Dialect/Sched/IR/SchedOps.h"
#include "normc/Frontend/SpecToNorm.h"
#include "normc/Target/Cuda/CudaEmitter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace normc;

struct SpecCompilation::State {
  State() : context(makeRegistry(), MLIRContext::Threading::DISABLED) {
    context.loadAllAvailableDialects();
    handler = std::make_unique<ScopedDiagnosticHandler>(
        &context, [this](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Error && errors) {
            llvm::raw_string_ostream os(*errors);
            if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation()))
              os << loc.getFilename() << ":" << loc.getLine() << ":"
                 << loc.getColumn() << ": ";
            os << "error: " << diag << "\n";
          }
          return success();
        });
  }
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerNormcDialects(registry);
    return registry;
  }

  MLIRContext context;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
  std::string *errors = nullptr; // where diagnostics go during a call
  OwningOpRef<ModuleOp> rows;    // row-level, unscheduled
};

SpecCompilation::SpecCompilation() : state(std::make_unique<State>()) {}

/// The CUDA source of a kernel-level module and its kernels' launch facts.
static std::optional<EmittedModule> emitModule(ModuleOp module) {
  EmittedModule out;
  llvm::raw_string_ostream os(out.source);
  FailureOr<std::vector<KernelLaunchInfo>> sequence = getLaunchSequence(module);
  if (failed(sequence) || failed(emitCuda(module, os)))
    return std::nullopt;
  out.kernels = std::move(*sequence);
  return out;
}

/// The same for a module of one kernel, as a spec lowers to.
static std::optional<EmittedKernel> emitKernel(ModuleOp module) {
  std::optional<EmittedModule> emitted = emitModule(module);
  if (!emitted)
    return std::nullopt;
  if (emitted->kernels.size() != 1) {
    module.emitError("holds ")
        << emitted->kernels.size() << " kernels; a forward spec runs one";
    return std::nullopt;
  }
  return EmittedKernel{std::move(emitted->source),
                       std::move(emitted->kernels.front())};
}
SpecCompilation::~SpecCompilation() = default;

std::unique_ptr<SpecCompilation>
SpecCompilation::create(const dsl::Spec &spec, std::optional<int64_t> cols,
                        std::string &errors) {
  std::unique_ptr<SpecCompilation> compilation(new SpecCompilation());
  State &state = *compilation->state;
  state.errors = &errors;
  state.rows = buildSpecModule(spec, cols, state.context);
  bool ok = state.rows && succeeded(verify(*state.rows)) &&
            succeeded(lowerToRows(*state.rows));
  state.errors = nullptr;
  if (!ok)
    return nullptr;
  for (auto kernel : state.rows->getOps<sched::KernelOp>())
    compilation->scheduleProblem = sched::getScheduleProblem(kernel);
  return compilation;
}

std::optional<EmittedKernel>
SpecCompilation::emit(const ScheduleOptions &schedule, std::string &errors,
                      const std::string &symbol) const {
  std::lock_guard<std::mutex> lock(mutex);
  state->errors = &errors;
  OwningOpRef<ModuleOp> module = state->rows->clone();
  if (!symbol.empty())
    for (auto kernel : module->getOps<sched::KernelOp>())
      kernel.setSymName(symbol);
  std::optional<EmittedKernel> kernel;
  if (succeeded(assignSchedules(*module, schedule)) &&
      succeeded(lowerToLoops(*module)))
    kernel = emitKernel(*module);
  state->errors = nullptr;
  return kernel;
}

std::optional<EmittedKernel>
normc::emitSpecKernel(const dsl::Spec &spec, std::optional<int64_t> cols,
                      const ScheduleOptions &schedule, std::string &errors) {
  std::unique_ptr<SpecCompilation> compilation =
      SpecCompilation::create(spec, cols, errors);
  if (!compilation)
    return std::nullopt;
  return compilation->emit(schedule, errors);
}

std::optional<EmittedModule> normc::emitIRFile(const std::string &path,
                                               std::string &errors) {
  SpecCompilation compilation;
  SpecCompilation::State &state = *compilation.state;
  state.errors = &errors;
  llvm::SourceMgr sourceMgr;
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(path, sourceMgr, ParserConfig(&state.context));
  std::optional<EmittedModule> emitted;
  if (module && succeeded(verify(*module)) &&
      succeeded(lowerToSchedule(*module, ScheduleOptions())))
    emitted = emitModule(*module);
  state.errors = nullptr;
  return emitted;
}
