//===- Spec.h - The validated model of a normalization spec --------------===//
//
// The in-memory form of a TOML spec (docs/spec.md). Every field keeps
// the position of the key or value it came from, so later stages (the MLIR
// builder, the runtime) can point back at the user's file. Defaults carry an
// unknown position.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_DSL_SPEC_H
#define NORMC_DSL_SPEC_H

#include "normc/Abi/ElementType.h"
#include "normc/Dsl/Diagnostic.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normc::dsl {

/// An element type a spec names: its row of the element-type table
/// (normc/Abi/ElementType.h), which spells it and says its width, range and
/// roles. The fp8 formats (OCP E4M3FN and E5M2) are output types only,
/// quantized with a scale (docs/fp8.md).
class DType {
public:
  static const DType F32, F64, F16, BF16, F8E4M3, F8E5M2;
  /// Formats of the block-scaled and integer outputs to come (no spec may
  /// name them yet): OCP FP4 E2M1, the E8M0 block scale, int8.
  static const DType F4E2M1, F8E8M0, I8;

  /// The table's row for `name`, if a spec may name it (it has a role).
  static std::optional<DType> named(std::string_view name);
  const ElementType &elementType() const { return *type; }
  friend bool operator==(DType a, DType b) { return a.type == b.type; }
  friend bool operator!=(DType a, DType b) { return a.type != b.type; }

private:
  explicit constexpr DType(const ElementType *type) : type(type) {}
  // A name the table lacks is a null row, and dereferencing it stops the
  // constant evaluation: a misspelled constant does not compile.
  static constexpr DType of(std::string_view name) {
    return DType(&*findElementType(name));
  }
  const ElementType *type;
};
inline constexpr DType DType::F32 = DType::of("f32");
inline constexpr DType DType::F64 = DType::of("f64");
inline constexpr DType DType::F16 = DType::of("f16");
inline constexpr DType DType::BF16 = DType::of("bf16");
inline constexpr DType DType::F8E4M3 = DType::of("f8e4m3");
inline constexpr DType DType::F8E5M2 = DType::of("f8e5m2");
inline constexpr DType DType::F4E2M1 = DType::of("f4e2m1");
inline constexpr DType DType::F8E8M0 = DType::of("f8e8m0");
inline constexpr DType DType::I8 = DType::of("i8");

/// What n is (`[statistics] method`): the statistics of steps 2 to 4,
/// tanh(alpha h) (Dynamic Tanh) or erf(alpha h + shift) (Derf), with alpha
/// and shift learnable scalars and no statistics (docs/spec.md, "Dynamic
/// Tanh and Derf").
enum class Method { Moments, Tanh, Erf };
enum class Variance { Biased, Unbiased };
enum class EpsilonPlacement { InsideSqrt, OutsideSqrt };
/// Where n = (h - mean) * rstd is rounded before the gain (affine.normalized):
/// not at all, to the input type (LlamaRMSNorm) or to the params type
/// (T5LayerNorm).
enum class NormalizedRounding { Accumulate, Input, Params };
/// How an fp8 output is scaled (`[quantize] scale`): one scale per row, per
/// block of features of each row, or one given scale.
enum class QuantizeScale { Row, Block, Static };
/// Where a second input z[rows, d] multiplies by act(z) (`[fusion] gate`):
/// nowhere, h before the statistics, y before its rounding, or the rounded
/// y, rounded again (docs/spec.md, "Gates").
enum class Gate { None, Before, After, AfterRounded };
/// The gate's act (`[fusion] gate_activation`): silu(v) = v / (1 + exp(-v))
/// or sigmoid(v) = 1 / (1 + exp(-v)).
enum class GateActivation { Silu, Sigmoid };

/// Spelling used in specs: "f32", "f64", "f16", "bf16", "f8e4m3", ...
std::string_view toString(DType t);
std::string_view toString(Method m);
std::string_view toString(Variance v);
std::string_view toString(EpsilonPlacement p);
std::string_view toString(NormalizedRounding r);
std::string_view toString(QuantizeScale s);
std::string_view toString(Gate g);
std::string_view toString(GateActivation a);
std::optional<DType> parseDType(std::string_view s);
std::optional<Variance> parseVariance(std::string_view s);
std::optional<EpsilonPlacement> parseEpsilonPlacement(std::string_view s);
std::optional<NormalizedRounding> parseNormalizedRounding(std::string_view s);
/// Whether `t` is a format an output is quantized to (fp8).
bool isFp8(DType t);
/// Size of one element in bytes.
unsigned byteWidth(DType t);
/// The largest finite value of a type (65504 for f16).
double largestFinite(DType t);
/// The smallest positive (subnormal) value of a type (2^-24 for f16).
double smallestSubnormal(DType t);
/// The types a spec may name for any of the `roles` (ElementType::Role
/// bits), in the table's order.
std::vector<DType> dtypesWithRole(unsigned roles);

/// A value and where it was written (unknown position for defaults).
template <typename T> struct Located {
  T value{};
  SourceLoc loc;
};

struct Spec {
  Located<std::string> name;

  // [statistics]
  Located<Method> method{Method::Moments, {}};
  /// Whether n comes from statistics (else from alpha and shift).
  bool hasStatistics() const { return method.value == Method::Moments; }
  Located<bool> center{false, {}};
  Located<bool> scale{true, {}};
  Located<double> fraction{1.0, {}};
  Located<Variance> variance{Variance::Biased, {}};

  // [epsilon]
  Located<double> epsilon{1e-5, {}};
  Located<EpsilonPlacement> placement{EpsilonPlacement::InsideSqrt, {}};

  // [affine]
  Located<bool> gain{true, {}};
  Located<double> gainOffset{0.0, {}};
  Located<bool> bias{false, {}};
  Located<NormalizedRounding> normalized{NormalizedRounding::Accumulate, {}};

  // [dtypes]
  Located<DType> input{DType::F32, {}};
  /// The storage of the residual stream (r and residual_out, with
  /// residual_add); nullopt: the input type.
  Located<std::optional<DType>> residual{std::nullopt, {}};
  DType residualType() const { return residual.value.value_or(input.value); }
  Located<DType> output{DType::F32, {}};
  Located<DType> params{DType::F32, {}};
  Located<DType> accumulate{DType::F32, {}};
  /// The type of the backward's sums over rows (dgamma, dbeta); nullopt:
  /// the accumulate type.
  Located<std::optional<DType>> accumulateRows{std::nullopt, {}};
  DType rowsAccumulate() const {
    return accumulateRows.value.value_or(accumulate.value);
  }

  // [quantize], meaningful with an fp8 output only
  Located<QuantizeScale> quantizeScale{QuantizeScale::Row, {}};
  Located<double> quantizeBlock{128, {}};
  bool quantized() const { return isFp8(output.value); }

  /// The type n is rounded to before the gain; nullopt for "accumulate".
  std::optional<DType> normalizedType() const;

  // [fusion]
  Located<bool> residualAdd{false, {}};
  Located<bool> saveStats{false, {}};
  Located<Gate> gate{Gate::None, {}};
  Located<GateActivation> gateActivation{GateActivation::Silu, {}};
  bool gated() const { return gate.value != Gate::None; }

  // [numerics]
  /// The reduction order is a function of d only: every schedule the
  /// compiler may choose, every batch size and every device give the same
  /// bits (docs/numerics.md, "Reproducible mode").
  Located<bool> reproducible{false, {}};

  /// The file the spec came from ("<string>" when parsed from memory).
  std::string file;

  /// Canonical TOML text: every key, fixed order, no comments. Two specs
  /// that mean the same have the same canonical text (used as a cache key).
  std::string canonical() const;
};

/// Result of reading a spec: the spec when there were no errors, and every
/// diagnostic (errors and warnings) in source order.
struct SpecParseResult {
  std::optional<Spec> spec;
  std::vector<Diagnostic> diagnostics;
};

/// Parses and validates a spec file. Never throws; I/O and syntax errors come
/// back as diagnostics (syntax errors at the TOML parser's position).
SpecParseResult parseSpecFile(const std::string &path);

/// Same for text held in memory; `fileName` is used in diagnostics.
SpecParseResult parseSpecString(std::string_view text,
                                const std::string &fileName);

} // namespace normc::dsl

#endif // NORMC_DSL_SPEC_H
