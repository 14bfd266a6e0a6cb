//===- SpecChecks.cpp - Rules relating several spec keys ------------------===//
//
// Each error points at the value that departs from the default, which is the
// one the user wrote to reach the bad combination.
//
//===----------------------------------------------------------------------===//
#include "SpecChecks.h"

#include <cmath>
#include <cstdio>
#include <utility>

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

  // The kernel holds epsilon and the gain offset in the accumulate type: a
  // value it cannot hold would be Inf there, or silently 0.
  auto fitsAccumulate = [&](const Located<double> &v, const char *key) {
    const DType acc = spec.accumulate.value;
    const std::string type(toString(acc));
    const double m = std::fabs(v.value), big = largestFinite(acc),
                 tiny = smallestSubnormal(acc);
    char text[160];
    // Rounding to nearest reaches Inf half an ulp above the largest value,
    // halfway to the next power of two (f64 holds every number a spec can
    // hold), and 0 at half the smallest.
    if (acc != DType::F64 &&
        m >= (big + std::ldexp(1.0, std::ilogb(big) + 1)) / 2) {
      std::snprintf(text, sizeof text,
                    "'%s' is %.9g, more than the accumulate type %s holds (its "
                    "largest value is %.9g)",
                    key, v.value, type.c_str(), big);
      error(v.loc, text);
    } else if (m != 0 && m <= tiny / 2) {
      std::snprintf(text, sizeof text,
                    "'%s' is %.9g, which is 0 in the accumulate type %s (its "
                    "smallest value is %.9g)",
                    key, v.value, type.c_str(), tiny);
      error(v.loc, text);
    }
  };
  fitsAccumulate(spec.epsilon, "value");
  fitsAccumulate(spec.gainOffset, "gain_offset");

  if (spec.normalized.value == NormalizedRounding::Params && !spec.gain.value &&
      !spec.bias.value)
    error(spec.normalized.loc,
          "'normalized' can be \"params\" only with a gain or a bias (there "
          "are no params to round to)");

  if (spec.residual.value && !spec.residualAdd.value)
    error(spec.residual.loc,
          "'residual' is the type of the residual stream, which needs "
          "[fusion] residual_add = true");
  else if (spec.residual.value &&
           spec.residualType().elementType().mantissaBits >
               spec.accumulate.value.elementType().mantissaBits)
    diags.push_back({Severity::Warning, spec.residual.loc,
                     "the residual stream is " +
                         std::string(toString(spec.residualType())) +
                         ", but x + r is added in " +
                         std::string(toString(spec.accumulate.value)) +
                         " (the accumulate type): residual_out keeps only " +
                         std::string(toString(spec.accumulate.value)) +
                         "'s precision"});

  // [quantize] belongs to a quantized output (docs/fp8.md): fp8 or int8.
  const bool fp8 = spec.quantized();
  for (const SourceLoc *written :
       {&spec.quantizeScale.loc, &spec.quantizeBlock.loc})
    if (!fp8 && written->line != 0)
      error(*written,
            "[quantize] needs a quantized output (dtypes.output = "
            "\"f8e4m3\", \"f8e5m2\" or \"i8\"), but the output is \"" +
                std::string(toString(spec.output.value)) + "\"");
  if (spec.output.value == DType::I8 &&
      spec.quantizeScale.value == QuantizeScale::Block)
    error(spec.quantizeScale.loc,
          "an \"i8\" output takes scale = \"row\" or \"static\", not "
          "\"block\"");
  if (fp8 && spec.quantizeBlock.loc.line != 0 &&
      spec.quantizeScale.value != QuantizeScale::Block)
    error(spec.quantizeBlock.loc,
          "'block' applies only with scale = "
          "\"block\", but the scale is \"" +
              std::string(toString(spec.quantizeScale.value)) + "\"");

  // Dynamic Tanh and Derf have no statistics (docs/spec.md, "Dynamic Tanh
  // and Derf"): the keys that shape them mean nothing.
  if (!spec.hasStatistics()) {
    const std::string method =
        "method = \"" + std::string(toString(spec.method.value)) + "\"";
    if (spec.center.value)
      error(spec.center.loc, "'center' must be absent or false with " + method +
                                 " (there is no mean)");
    for (auto [loc, key] : {std::pair{&spec.scale.loc, "'scale'"},
                            {&spec.fraction.loc, "'fraction'"},
                            {&spec.variance.loc, "'variance'"},
                            {&spec.epsilon.loc, "[epsilon] 'value'"},
                            {&spec.placement.loc, "[epsilon] 'placement'"}})
      if (loc->line != 0)
        error(*loc, std::string(key) + " applies only to statistics, but " +
                        method + " computes none");
    if (spec.saveStats.value)
      error(spec.saveStats.loc, "'save_stats' applies only to statistics, "
                                "but " +
                                    method + " computes none");
  }

  // A gate (docs/spec.md, "Gates").
  if (!spec.gated() && spec.gateActivation.loc.line != 0)
    error(spec.gateActivation.loc,
          "'gate_activation' applies only with a gate, but [fusion] gate is "
          "\"none\"");
  if (fp8 && spec.gate.value == Gate::AfterRounded)
    error(spec.gate.loc,
          "'gate' cannot be \"after_rounded\" with an fp8 output (y is "
          "quantized, not rounded to a type to gate); \"after\" gates y "
          "before it is quantized");

  auto warnSixteenBits = [&](DType type, const SourceLoc &loc,
                             const char *what) {
    if (type == DType::F16)
      diags.push_back({Severity::Warning, loc,
                       std::string(what) +
                           " in f16 loses precision and may overflow; "
                           "\"f32\" is recommended"});
    else if (type == DType::BF16)
      diags.push_back({Severity::Warning, loc,
                       std::string(what) +
                           " in bf16 loses precision; \"f32\" is "
                           "recommended"});
  };
  warnSixteenBits(spec.accumulate.value, spec.accumulate.loc, "accumulating");
  if (spec.accumulateRows.value &&
      *spec.accumulateRows.value != spec.accumulate.value)
    warnSixteenBits(*spec.accumulateRows.value, spec.accumulateRows.loc,
                    "summing over rows");
}

} // namespace normc::dsl::detail
