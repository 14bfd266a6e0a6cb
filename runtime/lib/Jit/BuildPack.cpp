//===- BuildPack.cpp - Compile every schedule candidate into a pack -------===//
#include "normc/Runtime/Jit/BuildPack.h"
#include "normc/Abi/Version.h"
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Policy/Candidates.h"

std::optional<normc::Pack> normc::buildPack(const dsl::Spec &spec,
                                            std::optional<int64_t> d,
                                            std::string &errors, int arch) {
  Pack pack;
  pack.normcVersion = kVersion;
  pack.specToml = spec.canonical();
  pack.d = d;
  std::vector<Program> programs = {Program::forward()};
  if (!spec.quantized()) // fp8 outputs have no backward (docs/fp8.md)
    for (const Program &p : Program::backwards(spec.residualAdd.value))
      programs.push_back(p);
  for (const Program &program : programs) {
    std::unique_ptr<SpecCompilation> compilation =
        SpecCompilation::create(spec, d, errors, program);
    if (!compilation)
      return std::nullopt;
    ScheduleProblem problem = compilation->problem();
    problem.arch = arch;
    for (const Schedule &schedule : scheduleCandidates(problem)) {
      std::string rejected;
      std::optional<EmittedModule> module =
          compilation->emitModule(schedule, rejected);
      if (module)
        pack.candidates.push_back({schedule, std::move(module->source),
                                   std::move(module->kernels), program});
      else
        errors += program.str() + " " + schedule.str() + ": " + rejected;
    }
  }
  if (pack.candidates.empty())
    return std::nullopt;
  return pack;
}
