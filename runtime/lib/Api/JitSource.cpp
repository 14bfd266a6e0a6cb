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
#include "normc/Frontend/SpecCompiler.h"

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

  std::vector<Schedule> schedules(int64_t d) const override {
    return scheduleCandidates(compilation(d).problem());
  }

  Candidate kernel(int64_t d, const Schedule &schedule) const override {
    std::string key = cache::KeyBuilder()
                          .add("spec", canonical)
                          .add("d", std::to_string(d))
                          .add("schedule", schedule.str())
                          .add("normc", kVersion)
                          .hex();
    if (std::shared_ptr<const std::string> hit = emitted->get(key)) {
      size_t eol = hit->find('\n');
      if (eol != std::string::npos)
        if (auto info = kernelInfoFromText(hit->substr(0, eol)))
          return {schedule, hit->substr(eol + 1), *info};
    }
    std::string errors;
    std::optional<EmittedKernel> kernel = compilation(d).emit(schedule, errors);
    if (!kernel)
      throw Error("cannot compile '" + specModel.name.value +
                  "' for d = " + std::to_string(d) + " with " + schedule.str() +
                  ":\n" + errors);
    emitted->put(key, toText(kernel->info) + "\n" + kernel->source);
    return {schedule, std::move(kernel->source), std::move(kernel->info)};
  }

private:
  /// The spec lowered once per d; every schedule is emitted from it.
  const SpecCompilation &compilation(int64_t d) const {
    std::lock_guard<std::mutex> lock(mutex);
    std::unique_ptr<SpecCompilation> &entry = compilations[d];
    if (!entry) {
      std::string errors;
      entry = SpecCompilation::create(specModel, d, errors);
      if (!entry)
        throw Error("cannot compile '" + specModel.name.value +
                    "' for d = " + std::to_string(d) + ":\n" + errors);
    }
    return *entry;
  }

  dsl::Spec specModel;
  std::string canonical;
  std::shared_ptr<cache::TwoLevelCache> emitted;
  mutable std::mutex mutex;
  mutable std::map<int64_t, std::unique_ptr<SpecCompilation>> compilations;
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
