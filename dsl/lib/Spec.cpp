//===- Spec.cpp - Spellings of spec enums and the canonical spec text -----===//
//
// The enum spellings here are the ones the TOML spec and the MLIR dialects
// use; parseX is the exact inverse of toString.
//
//===----------------------------------------------------------------------===//
#include "normc/Dsl/Spec.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace normc::dsl {

namespace {
/// One enum's spellings; toString and parseX read the same table, so each
/// is the exact inverse of the other.
template <typename E> struct Spelling {
  E value;
  std::string_view text;
};

constexpr Spelling<QuantizeScale> kScales[] = {
    {QuantizeScale::Row, "row"},
    {QuantizeScale::Block, "block"},
    {QuantizeScale::Static, "static"}};
constexpr Spelling<Method> kMethods[] = {
    {Method::Moments, "moments"}, {Method::Tanh, "tanh"}, {Method::Erf, "erf"}};
constexpr Spelling<Variance> kVariances[] = {{Variance::Biased, "biased"},
                                             {Variance::Unbiased, "unbiased"}};
constexpr Spelling<EpsilonPlacement> kPlacements[] = {
    {EpsilonPlacement::InsideSqrt, "inside_sqrt"},
    {EpsilonPlacement::OutsideSqrt, "outside_sqrt"}};
constexpr Spelling<NormalizedRounding> kRoundings[] = {
    {NormalizedRounding::Accumulate, "accumulate"},
    {NormalizedRounding::Input, "input"},
    {NormalizedRounding::Params, "params"}};
constexpr Spelling<Gate> kGates[] = {{Gate::None, "none"},
                                     {Gate::Before, "before"},
                                     {Gate::After, "after"},
                                     {Gate::AfterRounded, "after_rounded"}};
constexpr Spelling<GateActivation> kActivations[] = {
    {GateActivation::Silu, "silu"}, {GateActivation::Sigmoid, "sigmoid"}};

template <typename E, size_t N>
std::string_view spell(const Spelling<E> (&table)[N], E value) {
  for (const Spelling<E> &s : table)
    if (s.value == value)
      return s.text;
  return table[0].text;
}

template <typename E, size_t N>
std::optional<E> parse(const Spelling<E> (&table)[N], std::string_view text) {
  for (const Spelling<E> &s : table)
    if (s.text == text)
      return s.value;
  return std::nullopt;
}
} // namespace

std::string_view toString(DType t) { return t.elementType().name; }
std::string_view toString(QuantizeScale s) { return spell(kScales, s); }
std::string_view toString(Method m) { return spell(kMethods, m); }
std::string_view toString(Variance v) { return spell(kVariances, v); }
std::string_view toString(EpsilonPlacement p) { return spell(kPlacements, p); }
std::string_view toString(NormalizedRounding r) { return spell(kRoundings, r); }
std::string_view toString(Gate g) { return spell(kGates, g); }
std::string_view toString(GateActivation a) { return spell(kActivations, a); }

std::optional<DType> DType::named(std::string_view name) {
  const ElementType *type = findElementType(name);
  if (!type || type->roles == 0)
    return std::nullopt;
  return DType(type);
}

std::optional<DType> parseDType(std::string_view s) { return DType::named(s); }
std::optional<Variance> parseVariance(std::string_view s) {
  return parse(kVariances, s);
}
std::optional<EpsilonPlacement> parseEpsilonPlacement(std::string_view s) {
  return parse(kPlacements, s);
}
std::optional<NormalizedRounding> parseNormalizedRounding(std::string_view s) {
  return parse(kRoundings, s);
}

bool isFp8(DType t) { return t.elementType().hasRole(ElementType::Quantized); }

double largestFinite(DType t) { return t.elementType().largestFinite(); }

double smallestSubnormal(DType t) { return t.elementType().smallestPositive(); }

unsigned byteWidth(DType t) { return t.elementType().bytesFor(1); }

std::vector<DType> dtypesWithRole(unsigned roles) {
  std::vector<DType> types;
  for (const ElementType &type : allElementTypes())
    if (type.hasRole(roles))
      types.push_back(*DType::named(type.name));
  return types;
}

/// The shortest TOML float that reads back to exactly `v` ("1e-05", not
/// "1.0000000000000001e-05"; %.17g always round-trips). Zero loses its sign
/// so that 0.0 and -0.0, which mean the same, canonicalize alike.
static std::string tomlFloat(double v) {
  if (v == 0)
    return "0.0";
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  char buf[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v)
      break;
  }
  std::string s = buf;
  // "%g" drops the fraction of integral values; TOML needs it for a float.
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return s;
}

/// A TOML basic string holding `s`.
static std::string tomlString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

static const char *tomlBool(bool b) { return b ? "true" : "false"; }

std::optional<DType> Spec::normalizedType() const {
  switch (normalized.value) {
  case NormalizedRounding::Accumulate:
    return std::nullopt;
  case NormalizedRounding::Input:
    return input.value;
  case NormalizedRounding::Params:
    return params.value;
  }
  return std::nullopt;
}

std::string Spec::canonical() const {
  std::string out;
  auto line = [&out](std::string_view key, std::string_view value) {
    out.append(key).append(" = ").append(value).append("\n");
  };
  auto str = [](auto e) { return tomlString(toString(e)); };

  line("name", tomlString(name.value));
  out += "\n[statistics]\n";
  // Without statistics their keys and epsilon mean nothing (a spec may not
  // give them); with them the method is not written, so the specs of
  // statistics keep their text.
  if (!hasStatistics()) {
    line("method", str(method.value));
  } else {
    line("center", tomlBool(center.value));
    line("scale", tomlBool(scale.value));
    line("fraction", tomlFloat(fraction.value));
    line("variance", str(variance.value));
    out += "\n[epsilon]\n";
    line("value", tomlFloat(epsilon.value));
    line("placement", str(placement.value));
  }
  out += "\n[affine]\n";
  line("gain", tomlBool(gain.value));
  line("gain_offset", tomlFloat(gainOffset.value));
  line("bias", tomlBool(bias.value));
  line("normalized", str(normalized.value));
  out += "\n[dtypes]\n";
  line("input", str(input.value));
  // Only where it differs, so the other specs keep their text.
  if (residualType() != input.value)
    line("residual", str(residualType()));
  line("output", str(output.value));
  line("params", str(params.value));
  line("accumulate", str(accumulate.value));
  // Only where it differs, so the other specs keep their text.
  if (rowsAccumulate() != accumulate.value)
    line("accumulate_rows", str(rowsAccumulate()));
  out += "\n[fusion]\n";
  line("residual_add", tomlBool(residualAdd.value));
  line("save_stats", tomlBool(saveStats.value));
  // Only gated specs name a gate, so the others keep their text.
  if (gated()) {
    line("gate", str(gate.value));
    line("gate_activation", str(gateActivation.value));
  }
  // Only quantized specs have the table, so the others keep their text.
  if (quantized()) {
    out += "\n[quantize]\n";
    line("scale", str(quantizeScale.value));
    if (quantizeScale.value == QuantizeScale::Block)
      line("block", std::to_string(static_cast<int64_t>(quantizeBlock.value)));
  }
  // Likewise only reproducible specs have [numerics].
  if (reproducible.value) {
    out += "\n[numerics]\n";
    line("reproducible", tomlBool(true));
  }
  return out;
}

} // namespace normc::dsl
