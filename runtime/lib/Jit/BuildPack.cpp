//===- BuildPack.cpp - Compile every schedule candidate into a pack -------===//
#include "normc/Runtime/BuildPack.h"
#include "normc/Abi/Version.h"
#include "normc/Frontend/SpecCompiler.h"

std::optional<normc::Pack> normc::buildPack(const dsl::Spec &spec,
                                            std::optional<int64_t> cols,
                                            std::string &errors) {
  std::unique_ptr<SpecCompilation> compilation =
      SpecCompilation::create(spec, cols, errors);
  if (!compilation)
    return std::nullopt;
  Pack pack;
  pack.normcVersion = kVersion;
  pack.specToml = spec.canonical();
  pack.cols = cols;
  for (const Schedule &schedule : scheduleCandidates(compilation->problem())) {
    std::string rejected;
    std::optional<EmittedKernel> kernel = compilation->emit(schedule, rejected);
    if (kernel)
      pack.candidates.push_back(
          {schedule, std::move(kernel->source), std::move(kernel->info)});
    else
      errors += schedule.str() + ": " + rejected;
  }
  if (pack.candidates.empty())
    return std::nullopt;
  return pack;
}
