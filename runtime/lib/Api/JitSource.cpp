//===- JitSource.cpp - Kernels JIT-compiled from a spec -------------------===//
//
// Emitted kernels are cached on disk by (canonical spec, d, schedule, normc
// version), so a later process skips the MLIR pipeline entirely.
//
//===----------------------------------------------------------------------===//
#include "KernelSource.h"
#include "normc/normc.h"

#ifdef NORMC_HAVE_COMPILER
#include "normc/Abi/Version.h"
#include "normc/CompilerSourceHash.h"
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Policy/Candidates.h"

#include <cstdlib>
#include <map>
#include <mutex>
#endif

using namespace normc;
using namespace normc::api;

#ifdef NORMC_HAVE_COMPILER
bool api::haveCompiler() { return true; }

namespace {
class JitSource : public KernelSource {
public:
  JitSource(dsl::Spec spec, std::shared_ptr<cache::TwoLevelCache> emitted)
      : specModel(std::move(spec)), canonical(specModel.canonical()),
        emitted(std::move(emitted)) {}

  const dsl::Spec &spec() const override { return specModel; }

  std::vector<Schedule> schedules(const Program &program, int64_t d,
                                  int arch) const override {
    ScheduleProblem problem = compilation(program, d).problem();
    problem.arch = arch;
    return scheduleCandidates(problem);
  }

  bool fixesD() const override { return true; }

  Candidate kernel(const Program &program, int64_t d,
                   const Schedule &schedule) const override {
    std::string key = cache::KeyBuilder()
                          .add("spec", canonical)
                          .add("program", program.str())
                          .add("d", std::to_string(d))
                          .add("schedule", schedule.str())
                          .add("normc", kVersion)
                          .add("compiler", kCompilerSourceHash)
                          .hex();
    // An entry: the number of kernels, one launch-facts line each, then
    // the source.
    if (std::shared_ptr<const std::string> hit = emitted->get(key))
      if (std::optional<Candidate> c = parseEntry(*hit, schedule))
        return *c;
    std::string errors;
    std::optional<EmittedModule> module =
        compilation(program, d).emitModule(schedule, errors);
    if (!module)
      throw Error("cannot compile the " + program.str() + " of '" +
                  specModel.name.value + "' for d = " + std::to_string(d) +
                  " with " + schedule.str() + ":\n" + errors);
    std::string entry = std::to_string(module->kernels.size()) + "\n";
    for (const KernelLaunchInfo &info : module->kernels)
      entry += toText(info) + "\n";
    emitted->put(key, entry + module->source);
    return {schedule, std::move(module->source), std::move(module->kernels)};
  }

  std::vector<KernelLaunchInfo>
  anyKernels(const Program &program) const override {
    // The heuristic's kernels for a d given at run time.
    std::string errors;
    std::unique_ptr<SpecCompilation> any =
        SpecCompilation::create(specModel, std::nullopt, errors, program);
    std::optional<EmittedModule> module;
    if (any)
      module = any->emitModule(ScheduleOptions(), errors);
    if (!module) // the compiler's positioned diagnostics say why
      throw Error(errors.empty()
                      ? "'" + specModel.name.value + "' has no " + program.str()
                      : errors.substr(0, errors.find_last_not_of('\n') + 1));
    return module->kernels;
  }

private:
  static std::optional<Candidate> parseEntry(const std::string &entry,
                                             const Schedule &schedule) {
    Candidate c{schedule, "", {}};
    size_t at = entry.find('\n');
    if (at == std::string::npos || at > 2)
      return std::nullopt;
    int count = std::atoi(entry.substr(0, at).c_str());
    for (int i = 0; i < count; ++i) {
      size_t eol = entry.find('\n', at + 1);
      if (eol == std::string::npos)
        return std::nullopt;
      std::optional<KernelLaunchInfo> info =
          kernelInfoFromText(entry.substr(at + 1, eol - at - 1));
      if (!info)
        return std::nullopt;
      c.kernels.push_back(std::move(*info));
      at = eol;
    }
    if (c.kernels.empty())
      return std::nullopt;
    c.source = entry.substr(at + 1);
    return c;
  }

  /// The spec lowered once per program and d; every schedule is emitted
  /// from it.
  const SpecCompilation &compilation(const Program &program, int64_t d) const {
    std::lock_guard<std::mutex> lock(mutex);
    std::unique_ptr<SpecCompilation> &entry = compilations[{program, d}];
    if (!entry) {
      std::string errors;
      entry = SpecCompilation::create(specModel, d, errors, program);
      if (!entry)
        throw Error("cannot compile the " + program.str() + " of '" +
                    specModel.name.value + "' for d = " + std::to_string(d) +
                    ":\n" + errors);
    }
    return *entry;
  }

  dsl::Spec specModel;
  std::string canonical;
  std::shared_ptr<cache::TwoLevelCache> emitted;
  mutable std::mutex mutex;
  mutable std::map<std::pair<Program, int64_t>,
                   std::unique_ptr<SpecCompilation>>
      compilations;
};
} // namespace

std::unique_ptr<KernelSource>
api::makeJitSource(dsl::Spec spec,
                   std::shared_ptr<cache::TwoLevelCache> emitted) {
  return std::make_unique<JitSource>(std::move(spec), std::move(emitted));
}
#else
bool api::haveCompiler() { return false; }

std::unique_ptr<KernelSource>
api::makeJitSource(dsl::Spec, std::shared_ptr<cache::TwoLevelCache>) {
  return nullptr;
}
#endif
