//===- SpecSchema.cpp - The keys a spec may contain -----------------------===//
//
// The keys of docs/spec.md as data. Defaults live in Spec's member
// initializers; this file only says which key fills which field and what it
// accepts.
//
//===----------------------------------------------------------------------===//
#include "SpecSchema.h"

#include <cmath>

namespace normc::dsl::detail {

static bool isFraction(double v) { return v > 0 && v <= 1; }
static bool isEpsilon(double v) { return std::isfinite(v) && v >= 0; }
static bool isFinite(double v) { return std::isfinite(v); }
// `center` says which of steps 2-4 run, so only statistics need it.
static bool needsStatistics(const Spec &spec) { return spec.hasStatistics(); }
static bool isQuantizeBlock(double v) {
  for (double block = 16; block <= 1024; block *= 2)
    if (v == block)
      return true;
  return false;
}

const std::vector<TableSchema> &specTables() {
  // Which types each key takes is the element-type table's roles.
  static const std::vector<DType> storage =
      dtypesWithRole(ElementType::Storage);
  static const std::vector<TableSchema> tables = {
      {"statistics",
       {{"method",
         EnumKey<Method>{&Spec::method,
                         {Method::Moments, Method::Tanh, Method::Erf}}},
        {"center", &Spec::center, needsStatistics},
        {"scale", &Spec::scale},
        {"fraction", NumberKey{&Spec::fraction, "in (0, 1]", isFraction}},
        {"variance",
         EnumKey<Variance>{&Spec::variance,
                           {Variance::Biased, Variance::Unbiased}}}}},
      {"epsilon",
       {{"value", NumberKey{&Spec::epsilon, "a finite number >= 0", isEpsilon}},
        {"placement",
         EnumKey<EpsilonPlacement>{
             &Spec::placement,
             {EpsilonPlacement::InsideSqrt, EpsilonPlacement::OutsideSqrt}}}}},
      {"affine",
       {{"gain", &Spec::gain},
        {"gain_offset",
         NumberKey{&Spec::gainOffset, "a finite number", isFinite}},
        {"bias", &Spec::bias},
        {"normalized",
         EnumKey<NormalizedRounding>{&Spec::normalized,
                                     {NormalizedRounding::Accumulate,
                                      NormalizedRounding::Input,
                                      NormalizedRounding::Params}}}}},
      {"dtypes",
       {{"input", EnumKey<DType>{&Spec::input, storage}},
        {"residual",
         EnumKey<DType, std::optional<DType>>{&Spec::residual, storage}},
        {"output",
         EnumKey<DType>{&Spec::output, dtypesWithRole(ElementType::Storage |
                                                      ElementType::Quantized)}},
        {"params", EnumKey<DType>{&Spec::params, storage}},
        {"accumulate", EnumKey<DType>{&Spec::accumulate,
                                      dtypesWithRole(ElementType::Accumulate)}},
        {"accumulate_rows",
         EnumKey<DType, std::optional<DType>>{
             &Spec::accumulateRows, dtypesWithRole(ElementType::Accumulate)}}}},
      {"fusion",
       {{"residual_add", &Spec::residualAdd},
        {"save_stats", &Spec::saveStats},
        {"gate", EnumKey<Gate>{&Spec::gate,
                               {Gate::None, Gate::Before, Gate::After,
                                Gate::AfterRounded}}},
        {"gate_activation",
         EnumKey<GateActivation>{
             &Spec::gateActivation,
             {GateActivation::Silu, GateActivation::Sigmoid}}}}},
      {"numerics", {{"reproducible", &Spec::reproducible}}},
      {"quantize",
       {{"scale",
         EnumKey<QuantizeScale>{&Spec::quantizeScale,
                                {QuantizeScale::Row, QuantizeScale::Block,
                                 QuantizeScale::Static}}},
        {"block",
         NumberKey{&Spec::quantizeBlock, "a power of two in [16, 1024]",
                   isQuantizeBlock}}}}};
  return tables;
}

} // namespace normc::dsl::detail
