//===- SpecCompiler.cpp - From a spec to CUDA source ----------------------===//
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Dialect/Kern/IR/LaunchInfo.h"
#include "normc/Dialect/Sched/IR/SchedOps.h"
#include "normc/Frontend/BoundedInput.h"
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
static std::optional<EmittedModule> emitModuleSource(ModuleOp module) {
  EmittedModule out;
  llvm::raw_string_ostream os(out.source);
  FailureOr<std::vector<KernelLaunchInfo>> sequence = getLaunchSequence(module);
  if (failed(sequence) || failed(emitCuda(module, os)))
    return std::nullopt;
  out.kernels = std::move(*sequence);
  return out;
}

SpecCompilation::~SpecCompilation() = default;

std::unique_ptr<SpecCompilation>
SpecCompilation::create(const dsl::Spec &spec, std::optional<int64_t> d,
                        std::string &errors, const Program &program) {
  if (program.backward && spec.quantized()) {
    errors +=
        dsl::Diagnostic{dsl::Severity::Error, spec.output.loc,
                        "an fp8 output (\"" +
                            std::string(dsl::toString(spec.output.value)) +
                            "\") has no backward (see docs/fp8.md)"}
            .str() +
        "\n";
    return nullptr;
  }
  std::unique_ptr<SpecCompilation> compilation(new SpecCompilation());
  State &state = *compilation->state;
  state.errors = &errors;
  state.rows = buildSpecModule(spec, d, state.context);
  bool ok = state.rows && succeeded(verify(*state.rows)) &&
            succeeded(deriveProgram(*state.rows, program)) &&
            succeeded(lowerToRows(*state.rows));
  state.errors = nullptr;
  if (!ok)
    return nullptr;
  // The first kernel is the one whose schedule is chosen; the others
  // finish its sums.
  for (auto kernel : state.rows->getOps<sched::KernelOp>()) {
    compilation->scheduleProblem = sched::getScheduleProblem(kernel);
    break;
  }
  return compilation;
}

std::optional<EmittedModule>
SpecCompilation::emitModule(const ScheduleOptions &schedule,
                            std::string &errors,
                            const std::string &symbol) const {
  std::lock_guard<std::mutex> lock(mutex);
  state->errors = &errors;
  OwningOpRef<ModuleOp> module = state->rows->clone();
  if (!symbol.empty()) {
    // Kernels are named after the spec; the first kernel's name is the
    // prefix of the others'.
    std::string prefix;
    for (auto kernel : module->getOps<sched::KernelOp>()) {
      std::string name = kernel.getSymName().str();
      if (prefix.empty())
        prefix = name;
      kernel.setSymName(symbol + name.substr(prefix.size()));
    }
  }
  std::optional<EmittedModule> emitted;
  if (succeeded(assignSchedules(*module, schedule)) &&
      succeeded(lowerToLoops(*module)))
    emitted = emitModuleSource(*module);
  state->errors = nullptr;
  return emitted;
}

std::optional<EmittedKernel>
SpecCompilation::emit(const ScheduleOptions &schedule, std::string &errors,
                      const std::string &symbol) const {
  std::optional<EmittedModule> emitted = emitModule(schedule, errors, symbol);
  if (!emitted)
    return std::nullopt;
  if (emitted->kernels.size() != 1) {
    errors += "the program has " + std::to_string(emitted->kernels.size()) +
              " kernels where one was expected\n";
    return std::nullopt;
  }
  return EmittedKernel{std::move(emitted->source),
                       std::move(emitted->kernels.front())};
}

std::optional<EmittedKernel>
normc::emitSpecKernel(const dsl::Spec &spec, std::optional<int64_t> d,
                      const ScheduleOptions &schedule, std::string &errors) {
  std::unique_ptr<SpecCompilation> compilation =
      SpecCompilation::create(spec, d, errors);
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
  std::string error;
  OwningOpRef<ModuleOp> module =
      parseBoundedMlir(path, sourceMgr, ParserConfig(&state.context), error);
  if (!error.empty())
    errors += error + "\n";
  std::optional<EmittedModule> emitted;
  if (module && succeeded(verify(*module)) &&
      succeeded(lowerToSchedule(*module, ScheduleOptions())))
    emitted = emitModuleSource(*module);
  state.errors = nullptr;
  return emitted;
}
