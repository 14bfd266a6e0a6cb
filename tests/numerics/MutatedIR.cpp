//===- MutatedIR.cpp - Kernels of a spec's IR, edited on purpose ----------===//
#include "MutatedIR.h"
#include "NumericsUtil.h"

#include "normc/Frontend/Pipeline.h"
#include "normc/Frontend/SpecToNorm.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <stdexcept>

using namespace mlir;
using namespace normc;

test::MutatedKernels test::compileMutated(const dsl::Spec &spec,
                                          const Program &program, int64_t d,
                                          const Mutation &mutate) {
  DialectRegistry registry;
  registerNormcDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = buildSpecModule(spec, d, context);
  if (failed(deriveProgram(*module, program)))
    throw std::runtime_error("cannot derive " + program.str());
  if (mutate)
    mutate(*module);
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile("mutated", "mlir", path))
    throw std::runtime_error("cannot make a temporary file");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    module->print(os);
  }
  std::string errors;
  std::optional<EmittedModule> emitted = emitIRFile(path.str().str(), errors);
  llvm::sys::fs::remove(path);
  if (!emitted)
    throw std::runtime_error("the mutated IR does not compile:\n" + errors);
  cpu::CpuModule cpuModule =
      cpu::CpuModule::compile(emitted->source, kernelCompileOptions());
  return {std::move(*emitted), std::move(cpuModule)};
}
