//===- CompileCommand.cpp - normc compile ---------------------------------===//
#include "CommandLine.h"
#include "Commands.h"
#include "OutputFile.h"
#include "SpecInput.h"

#include "normc/Frontend/BoundedInput.h"
#include "normc/Frontend/Pipeline.h"
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Frontend/SpecToNorm.h"
#include "normc/Runtime/Jit/BuildPack.h"
#include "normc/Runtime/Nvrtc/Nvrtc.h"
#include "normc/Target/Cuda/CudaEmitter.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace normc;
using namespace normc::tool;

static const char kCompileUsage[] = R"(usage: normc compile INPUT [options]

INPUT is a spec (.toml) or IR at any level (.mlir), so hand-edited IR can
be compiled on from where it stands.

options:
  --emit=STAGE          in pipeline order:
                          mlir     the spec-level norm dialect
                          sched    row-level sched IR with its schedule (edit
                                   the schedule here and compile on)
                          lowered  kernel-level sched IR: loops, storage,
                                   reductions, barriers, just before emission
                          cuda     CUDA C++ (default)
                          ptx, cubin
                          pack     every schedule candidate's CUDA source, of
                                   the forward and of every backward, and a
                                   manifest, written to the folder -o names
  --arch=sm_XX          GPU architecture for ptx and cubin (default sm_90)
  --cols=D              specialize for hidden size D (specs only); without
                        it the kernel takes d at run time
  --backward            the backward (dx, dresidual, dgamma, dbeta, a gate's
                        dz) instead of the forward, for every stage (specs
                        only)
  --saved-stats         backward: read the forward's saved mean and rstd
  --dresidual-out       backward, with residual_add: also read the gradient
                        arriving at residual_out
  -o FILE               write the output to FILE (replaced atomically; a
                        device or FIFO is written, a symbolic link written
                        through; - is stdout); text stages go to stdout
                        without it, a cubin to NAME.cubin
  --threads-per-row=N   schedule: threads sharing one row (power of two)
  --rows-per-block=N    schedule: rows one block owns
  --vector-width=N      schedule: elements per access
  --row-storage=WHERE   schedule: registers | shared | global
  --cluster-size=N      schedule: strategy cluster, N blocks (2, 4 or 8) a
                        row (sm_90; needs --cols). The heuristic picks a
                        cluster by itself for rows too wide for one block
                        when --arch is sm_90 or newer
  -v                    print NVRTC's log (registers, spills) to stderr
)";

namespace {
enum class Stage { Mlir, Sched, Lowered, Cuda, Ptx, Cubin, Pack };

struct CompileJob {
  std::string input;
  Stage stage = Stage::Cuda;
  std::string arch = "sm_90";
  std::optional<long long> d;
  std::optional<std::string> output;
  ScheduleOptions schedule;
  Program program;
  bool verbose = false;
};
} // namespace

/// Reads the input as a spec-level module, or as IR at either level.
static OwningOpRef<ModuleOp> loadInput(const CompileJob &job,
                                       MLIRContext &context,
                                       llvm::SourceMgr &sourceMgr) {
  if (llvm::StringRef(job.input).ends_with(".mlir")) {
    std::string error;
    OwningOpRef<ModuleOp> module =
        parseBoundedMlir(job.input, sourceMgr, ParserConfig(&context), error);
    if (!error.empty())
      llvm::errs() << error << "\n";
    return module;
  }
  std::optional<dsl::Spec> spec = readSpec(job.input);
  if (!spec)
    return nullptr;
  OwningOpRef<ModuleOp> module = buildSpecModule(*spec, job.d, context);
  if (failed(deriveProgram(*module, job.program)))
    return nullptr;
  return module;
}

static int compile(const CompileJob &job) {
  DialectRegistry registry;
  registerNormcDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // An error names its op by position; a dump of the whole op (a kernel,
  // hundreds of lines) would bury it.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  OwningOpRef<ModuleOp> module = loadInput(job, context, sourceMgr);
  if (!module || failed(verify(*module)))
    return kExitError;
  IRLevel level = getIRLevel(*module);
  if (level == IRLevel::Empty) {
    llvm::errs()
        << job.input
        << ": error: holds no norm.spec, sched.kernel or kern.kernel\n";
    return kExitError;
  }

  std::string text;
  llvm::raw_string_ostream os(text);
  if (job.stage == Stage::Mlir) {
    if (level != IRLevel::Spec) {
      llvm::errs() << job.input
                   << ": error: --emit=mlir needs a spec; this IR is already "
                      "at the schedule level (use --emit=sched or "
                      "--emit=lowered)\n";
      return kExitError;
    }
    module->print(os);
  } else if (job.stage == Stage::Sched) {
    if (level == IRLevel::Kernel) {
      llvm::errs() << job.input
                   << ": error: --emit=sched needs a spec or row-level IR; "
                      "this IR is already at the kernel level\n";
      return kExitError;
    }
    if ((level == IRLevel::Spec && failed(lowerToRows(*module))) ||
        failed(assignSchedules(*module, job.schedule)))
      return kExitError;
    module->print(os);
  } else {
    if (failed(lowerToSchedule(*module, job.schedule)))
      return kExitError;
    if (job.stage == Stage::Lowered)
      module->print(os);
    else if (failed(emitCuda(*module, os)))
      return kExitError;
  }

  std::string name = llvm::sys::path::stem(job.input).str();
  if (job.stage == Stage::Ptx || job.stage == Stage::Cubin) {
    nvrtc::Options options;
    options.arch = job.arch;
    options.target =
        job.stage == Stage::Ptx ? nvrtc::Target::Ptx : nvrtc::Target::Cubin;
    nvrtc::Result result = nvrtc::compile(text, name + ".cu", options);
    if (job.verbose || !result.ok)
      llvm::errs() << result.log;
    if (!result.ok) {
      llvm::errs() << job.input << ": error: NVRTC failed: " << result.error
                   << "\n";
      return kExitError;
    }
    if (long spills = nvrtc::spillBytes(result.log); spills > 0)
      llvm::errs() << job.input << ": warning: the kernel spills " << spills
                   << " bytes of registers\n";
    text = std::move(result.binary);
  }

  std::optional<std::string> path = job.output;
  if (!path && job.stage == Stage::Cubin)
    path = name + ".cubin";
  if (!path) {
    llvm::outs() << text;
    return 0;
  }
  if (std::string error = writeFileAtomically(*path, text); !error.empty()) {
    llvm::errs() << "normc: error: " << error << "\n";
    return kExitError;
  }
  if (!job.output)
    llvm::errs() << "wrote " << *path << "\n";
  return 0;
}

/// --emit=pack: the CUDA source of every schedule candidate of a spec.
static int writeKernelPack(const CompileJob &job) {
  if (!job.output) {
    usageError("--emit=pack needs -o DIR");
    return kExitUsage;
  }
  if (!llvm::StringRef(job.input).ends_with(".toml")) {
    usageError("--emit=pack takes a spec (.toml)");
    return kExitUsage;
  }
  std::optional<dsl::Spec> spec = readSpec(job.input);
  if (!spec)
    return kExitError;
  std::string errors;
  std::optional<Pack> pack = buildPack(*spec, job.d, errors, job.schedule.arch);
  if (!pack) {
    llvm::errs() << job.input << ": error: no schedule candidate compiles:\n"
                 << errors;
    return kExitError;
  }
  try {
    writePack(*job.output, *pack);
  } catch (const PackError &error) {
    llvm::errs() << "normc: error: " << error.what() << "\n";
    return kExitError;
  }
  llvm::errs() << "wrote " << pack->candidates.size() << " candidates to "
               << *job.output << "\n";
  return 0;
}

int normc::tool::runCompile(int argc, char **argv) {
  int exitCode = 0;
  std::optional<ParsedArgs> args = parseCommand(
      argc, argv, "compile", kCompileUsage,
      {"--emit", "--arch", "--cols", "-o", "--output", "--threads-per-row",
       "--rows-per-block", "--vector-width", "--row-storage", "--cluster-size"},
      {"-v", "--backward", "--saved-stats", "--dresidual-out"}, exitCode);
  if (!args)
    return exitCode;
  CompileJob job;
  job.input = args->positional[0];
  std::string emit = args->get("--emit").value_or("cuda");
  std::optional<Stage> stage = llvm::StringSwitch<std::optional<Stage>>(emit)
                                   .Case("mlir", Stage::Mlir)
                                   .Case("sched", Stage::Sched)
                                   .Case("lowered", Stage::Lowered)
                                   .Case("cuda", Stage::Cuda)
                                   .Case("ptx", Stage::Ptx)
                                   .Case("cubin", Stage::Cubin)
                                   .Case("pack", Stage::Pack)
                                   .Default(std::nullopt);
  if (!stage) {
    usageError("unknown stage '" + emit +
               "'; expected mlir, sched, lowered, cuda, ptx, cubin or pack");
    return kExitUsage;
  }
  job.stage = *stage;
  job.arch = args->get("--arch").value_or("sm_90");
  job.output = args->get("-o");
  if (!job.output)
    job.output = args->get("--output");
  job.verbose = args->has("-v");
  bool ok = true;
  job.d = parsePositive(*args, "--cols", ok);
  job.schedule.threadsPerRow = parsePositive(*args, "--threads-per-row", ok);
  job.schedule.rowsPerBlock = parsePositive(*args, "--rows-per-block", ok);
  job.schedule.vectorWidth = parsePositive(*args, "--vector-width", ok);
  if (std::optional<std::string> storage = args->get("--row-storage")) {
    job.schedule.rowStorage = parseRowStorage(*storage);
    if (!job.schedule.rowStorage) {
      usageError("unknown --row-storage '" + *storage +
                 "'; expected registers, shared or global");
      return kExitUsage;
    }
  }
  if (std::optional<long long> blocks =
          parsePositive(*args, "--cluster-size", ok)) {
    job.schedule.strategy = Strategy::Cluster;
    job.schedule.clusterSize = *blocks;
  }
  if (!ok)
    return kExitUsage;
  if (job.d && *job.d > kMaxD) {
    usageError("--cols is too large: at most " + std::to_string(kMaxD));
    return kExitUsage;
  }
  if (args->has("--backward"))
    job.program = Program::gradient(args->has("--saved-stats"),
                                    args->has("--dresidual-out"));
  else if (args->has("--saved-stats") || args->has("--dresidual-out")) {
    usageError("--saved-stats and --dresidual-out need --backward");
    return kExitUsage;
  }
  if (job.program.backward && job.stage == Stage::Pack) {
    usageError("a pack holds the forward and every backward; drop --backward");
    return kExitUsage;
  }
  if (job.program.backward && !llvm::StringRef(job.input).ends_with(".toml")) {
    usageError("--backward takes a spec (.toml); IR says itself what it "
               "computes");
    return kExitUsage;
  }
  if (job.d && llvm::StringRef(job.input).ends_with(".mlir")) {
    usageError("--cols applies to specs; IR already fixes d in its types");
    return kExitUsage;
  }
  if (!nvrtc::isValidArch(job.arch)) {
    usageError("invalid --arch '" + job.arch +
               "'; expected sm_XX such as sm_80 or sm_90");
    return kExitUsage;
  }
  job.schedule.arch = nvrtc::smVersion(job.arch);
  if (job.stage == Stage::Pack)
    return writeKernelPack(job);
  return compile(job);
}
