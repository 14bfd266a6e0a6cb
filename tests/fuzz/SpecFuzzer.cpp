//===- SpecFuzzer.cpp - The TOML front end, checker and emitter -----------===//
//
// Any bytes as a spec: parsing and checking never crash; a spec the checker
// accepts has a canonical text that reads back as the same spec, and it
// lowers and emits, forward and backward (refused with an error for an fp8
// output), at a fixed d and at run time.
//
//===----------------------------------------------------------------------===//
#include "normc/Dsl/Spec.h"
#include "normc/Frontend/SpecCompiler.h"

#include <cstdio>
#include <cstdlib>

using namespace normc;

namespace {
[[noreturn]] void broken(const char *what, const std::string &detail) {
  std::fprintf(stderr, "normc-fuzz-spec: %s\n%s\n", what, detail.c_str());
  std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  dsl::SpecParseResult parsed = dsl::parseSpecString(text, "fuzz.toml");
  if (!parsed.spec)
    return 0;
  const dsl::Spec &spec = *parsed.spec;
  std::string canonical = spec.canonical();
  dsl::SpecParseResult again = dsl::parseSpecString(canonical, "canonical");
  if (!again.spec || again.spec->canonical() != canonical)
    broken("the canonical text does not read back", canonical);
  for (std::optional<int64_t> d :
       {std::optional<int64_t>(64), std::optional<int64_t>()})
    for (const Program &program : {Program::forward(), Program::gradient()}) {
      std::string errors;
      std::unique_ptr<SpecCompilation> compilation =
          SpecCompilation::create(spec, d, errors, program);
      // An fp8 output has no backward: refused with an error, not compiled.
      if (program.backward && spec.quantized()) {
        if (compilation || errors.find("has no backward") == std::string::npos)
          broken("an fp8 spec's backward is not refused", canonical + errors);
        continue;
      }
      if (!compilation || !compilation->emitModule(ScheduleOptions(), errors))
        broken("an accepted spec does not compile", canonical + errors);
    }
  return 0;
}
