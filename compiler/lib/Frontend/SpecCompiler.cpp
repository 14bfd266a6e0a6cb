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

/// The CUDA source of a kernel-level module of one kernel and its launch
/// facts.
static std::optional<EmittedKernel> emitKernel(ModuleOp module) {
  std::string source;
  llvm::raw_string_ostream os(source);
  if (failed(emitCuda(module, os)))
    return std::nullopt;
  FailureOr<std::vector<KernelLaunchInfo>> sequence = getLaunchSequence(module);
  if (failed(sequence))
    return std::nullopt;
  if (sequence->size() != 1) {
    module.emitError("holds ")
        << sequence->size() << " kernels; a forward spec runs exactly one";
    return std::nullopt;
  }
  return EmittedKernel{std::move(source), std::move(sequence->front())};
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

std::optional<EmittedKernel> normc::emitIRFile(const std::string &path,
                                               std::string &errors) {
  SpecCompilation compilation;
  SpecCompilation::State &state = *compilation.state;
  state.errors = &errors;
  llvm::SourceMgr sourceMgr;
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(path, sourceMgr, ParserConfig(&state.context));
  std::optional<EmittedKernel> kernel;
  if (module && succeeded(verify(*module)) &&
      succeeded(lowerToSchedule(*module, ScheduleOptions())))
    kernel = emitKernel(*module);
  state.errors = nullptr;
  return kernel;
}
