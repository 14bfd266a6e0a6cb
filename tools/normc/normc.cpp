//===- normc.cpp - The normc command-line driver --------------------------===//
#include "CommandLine.h"
#include "Commands.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include "normc/Abi/Printable.h"

#include <cstring>
#include <new>

static const char kUsage[] = R"(normc: a compiler for normalization layers

usage:
  normc check   SPEC.toml                 validate; prints nothing on success
  normc compile INPUT --emit=STAGE [--arch=sm_XX] [--cols=D] [-o FILE]
                [--backward]              INPUT is a spec (.toml) or IR (.mlir)
  normc run     SPEC.toml --x X.npy [--residual R.npy] [--gamma G.npy]
                [--beta B.npy] --out DIR [--device=auto|cpu|cuda] [--check]
                                          run the generated kernel on .npy data
  normc run     SPEC.toml --backward --x X.npy --dy DY.npy [...] --out DIR
                                          dx, dgamma, dbeta (normc run --help)
  normc tune    SPEC.toml --cols=D --rows=R [--device=auto|cpu|cuda]
                [--backward]              measure the likeliest schedules, keep the best
  normc --version
  normc COMMAND --help                    options of one command

stages (--emit), in pipeline order:
  mlir      the spec-level IR (norm dialect)
  sched     the row-level sched IR with its schedule
  lowered   the kernel-level sched IR: loops, storage, reductions, barriers
  cuda      CUDA C++ source (default)
  ptx       PTX from NVRTC
  cubin     a CUBIN from NVRTC (written to NAME.cubin unless -o is given)
  pack      the CUDA source of every schedule candidate and a manifest,
            into the folder -o names (for runtimes built without LLVM)

exit status: 0 success, 1 bad input, 2 bad command-line usage
)";

static int dispatch(int argc, char **argv) {
  const char *command = argv[1];
  if (!std::strcmp(command, "--help") || !std::strcmp(command, "-h")) {
    llvm::outs() << kUsage;
    return 0;
  }
  if (!std::strcmp(command, "--version")) {
    llvm::outs() << "normc " << NORMC_VERSION << "\n";
    return 0;
  }
  if (!std::strcmp(command, "check"))
    return normc::tool::runCheck(argc - 2, argv + 2);
  if (!std::strcmp(command, "compile"))
    return normc::tool::runCompile(argc - 2, argv + 2);
  if (!std::strcmp(command, "run"))
    return normc::tool::runRun(argc - 2, argv + 2);
  if (!std::strcmp(command, "tune"))
    return normc::tool::runTune(argc - 2, argv + 2);
  normc::tool::usageError(std::string("unknown command '") + command +
                          "'; expected check, compile, run or tune");
  return normc::tool::kExitUsage;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // An allocation that fails is an exception the commands report, not
  // LLVM's "out of memory" abort.
  std::set_new_handler(nullptr);
  if (argc < 2) {
    llvm::errs() << kUsage;
    return normc::tool::kExitUsage;
  }
  // Every command reports its own errors; this is the net under them: no
  // input makes normc abort.
  try {
    return dispatch(argc, argv);
  } catch (const std::bad_alloc &) {
    llvm::errs() << "normc: error: out of memory\n";
  } catch (const std::exception &error) {
    llvm::errs() << "normc: error: " << normc::printable(error.what()) << "\n";
  }
  return normc::tool::kExitError;
}
