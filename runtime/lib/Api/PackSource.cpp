//===- PackSource.cpp - Kernels from a kernel pack ------------------------===//
#include "KernelSource.h"
#include "normc/normc.h"

using namespace normc;
using namespace normc::api;

namespace {
class PackSource : public KernelSource {
public:
  PackSource(Pack pack, dsl::Spec spec)
      : pack(std::move(pack)), specModel(std::move(spec)) {}

  const dsl::Spec &spec() const override { return specModel; }

  std::vector<Schedule> schedules(const Program &program, int64_t d,
                                  int arch) const override {
    if (pack.d && *pack.d != d)
      throw Error("the pack for '" + specModel.name.value +
                  "' is specialized for d = " + std::to_string(*pack.d) +
                  ", not d = " + std::to_string(d) +
                  "; make one without --cols for any d");
    std::vector<Schedule> out;
    // Clusters need sm_90; the CPU device (arch 0) runs them too.
    for (const PackCandidate &c : pack.candidates)
      if (c.program == program &&
          (c.schedule.strategy != Strategy::Cluster || !arch || arch >= 90))
        out.push_back(c.schedule);
    if (out.empty())
      throw Error("the pack for '" + specModel.name.value + "' has no " +
                  program.str() + " kernels; make it anew with this normc");
    return out;
  }

  bool fixesD() const override { return pack.d.has_value(); }

  Candidate kernel(const Program &program, int64_t d,
                   const Schedule &schedule) const override {
    for (const PackCandidate &c : pack.candidates)
      if (c.program == program && c.schedule == schedule)
        return {c.schedule, c.source, c.kernels};
    throw Error("the pack has no " + program.str() + " kernel for schedule " +
                schedule.str());
  }

  std::vector<KernelLaunchInfo>
  anyKernels(const Program &program) const override {
    for (const PackCandidate &c : pack.candidates)
      if (c.program == program)
        return c.kernels;
    throw Error("the pack for '" + specModel.name.value + "' has no " +
                program.str() + " kernels");
  }

private:
  Pack pack;
  dsl::Spec specModel;
};
} // namespace

std::unique_ptr<KernelSource> api::makePackSource(Pack pack, dsl::Spec spec) {
  return std::make_unique<PackSource>(std::move(pack), std::move(spec));
}
