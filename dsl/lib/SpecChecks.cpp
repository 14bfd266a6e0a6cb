//===- SpecChecks.cpp - Rules relating several spec keys ------------------===//
//
// Each error points at the value that departs from the default, which is the
// one the user wrote to reach the bad combination.
//
//===----------------------------------------------------------------------===//
#include "SpecChecks.h"

namespace normc::dsl::detail {

void checkSpec(const Spec &spec, std::vector<Diagnostic> &diags) {
  auto error = [&diags](const SourceLoc &loc, std::string message) {
    diags.push_back({Severity::Error, loc, std::move(message)});
  };
  const bool centerRead = spec.center.loc.line != 0;

  if (centerRead && !spec.center.value && !spec.scale.value)
    error(spec.scale.loc, "'center' and 'scale' cannot both be false "
                          "(nothing would be normalized)");
  if (centerRead && !spec.center.value &&
      spec.variance.value == Variance::Unbiased)
    error(spec.variance.loc,
          "'variance' can be \"unbiased\" only with 'center = true'");
  if (!spec.gain.value && spec.gainOffset.value != 0)
    error(spec.gainOffset.loc, "'gain_offset' must be 0 when 'gain = false' "
                               "(the offset is added to gamma)");

  if (spec.normalized.value == NormalizedRounding::Params && !spec.gain.value &&
      !spec.bias.value)
    error(spec.normalized.loc,
          "'normalized' can be \"params\" only with a gain or a bias (there "
          "are no params to round to)");

  switch (spec.accumulate.value) {
  case DType::F16:
    diags.push_back({Severity::Warning, spec.accumulate.loc,
                     "accumulating in f16 loses precision and may overflow; "
                     "\"f32\" is recommended"});
    break;
  case DType::BF16:
    diags.push_back({Severity::Warning, spec.accumulate.loc,
                     "accumulating in bf16 loses precision; \"f32\" is "
                     "recommended"});
    break;
  case DType::F32:
  case DType::F64:
    break;
  }
}

} // namespace normc::dsl::detail
