//===- ElementType.h - The element types of kernel arguments --------------===//
//
// The one table of element types: how specs, the IR (MLIR's builtin
// types), the launch facts, packs, Python and .npy files spell each one, its
// width (from which every host sizes its buffers), the CUDA type the emitter
// declares, its encoding, from which its range follows, and what normc may
// use it for. A type narrower than a byte is packed, 8 / bits elements a
// byte, the first in the low bits.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_ABI_ELEMENTTYPE_H
#define NORMC_ABI_ELEMENTTYPE_H

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normc {

struct ElementType {
  /// How the bits hold a value.
  enum class Encoding {
    Float,    // sign, exponent, mantissa (IEEE 754 layout)
    Integer,  // two's complement
    Exponent, // an unsigned biased power of two (a block scale, E8M0)
  };
  /// Which codes of a Float are not finite numbers.
  enum class Specials {
    Ieee,    // the top exponent holds infinities and NaNs
    NanOnly, // only the all-ones code of each sign is NaN (f8e4m3fn)
    None,    // every code is a finite number (f4e2m1)
  };
  /// What a spec may name a type for and the IR may hold it in (a set of
  /// these bits).
  enum Role : unsigned {
    Storage = 1,    // rows and parameters in memory (input, params, output)
    Quantized = 2,  // an output quantized with a scale (docs/fp8.md)
    Accumulate = 4, // arithmetic, statistics and the sums between kernels
  };
  /// What normc's conversion to the type makes of a value beyond its
  /// largest finite one (the fp8 conversions are `satfinite`).
  enum class Overflow { Infinity, Saturate };

  std::string_view name; // "bf16", "f32", "f8e4m3", ...
  int64_t bits;
  Encoding encoding;
  int exponentBits; // Float and Exponent
  int mantissaBits; // Float: explicit fraction bits
  Specials specials;
  std::string_view cudaName;  // "__nv_bfloat16", ...
  std::string_view torchName; // the torch dtype's attribute, "" if none
  std::string_view npyCode;   // numpy's .npy descr, less the byte order
                              // ("f4"); "" where numpy has no such type
  std::string_view mlirName;  // MLIR's builtin type: "bf16", "f8E4M3FN", ...
  unsigned roles;             // Role bits; 0 for a type no spec names yet
  Overflow overflow;

  /// Bytes that hold `count` elements, packed.
  int64_t bytesFor(int64_t count) const { return (count * bits + 7) / 8; }
  bool packed() const { return bits < 8; }
  /// Whether the type has any of the `anyOf` role bits.
  bool hasRole(unsigned anyOf) const { return (roles & anyOf) != 0; }
  /// The largest finite value.
  double largestFinite() const;
  /// The smallest positive value (of a float, its smallest subnormal).
  double smallestPositive() const;
};

namespace detail {
using Encoding = ElementType::Encoding;
using Specials = ElementType::Specials;
using Overflow = ElementType::Overflow;
constexpr unsigned kStorage = ElementType::Storage,
                   kQuantized = ElementType::Quantized,
                   kAccumulate = ElementType::Accumulate;

inline constexpr ElementType kElementTypes[] = {
    {"f64", 64, Encoding::Float, 11, 52, Specials::Ieee, "double", "float64",
     "f8", "f64", kAccumulate, Overflow::Infinity},
    {"f32", 32, Encoding::Float, 8, 23, Specials::Ieee, "float", "float32",
     "f4", "f32", kStorage | kAccumulate, Overflow::Infinity},
    {"f16", 16, Encoding::Float, 5, 10, Specials::Ieee, "__half", "float16",
     "f2", "f16", kStorage | kAccumulate, Overflow::Infinity},
    {"bf16", 16, Encoding::Float, 8, 7, Specials::Ieee, "__nv_bfloat16",
     "bfloat16", "", "bf16", kStorage | kAccumulate, Overflow::Infinity},
    {"f8e4m3", 8, Encoding::Float, 4, 3, Specials::NanOnly, "__nv_fp8_e4m3",
     "float8_e4m3fn", "", "f8E4M3FN", kQuantized, Overflow::Saturate},
    {"f8e5m2", 8, Encoding::Float, 5, 2, Specials::Ieee, "__nv_fp8_e5m2",
     "float8_e5m2", "", "f8E5M2", kQuantized, Overflow::Saturate},
    {"f8e8m0", 8, Encoding::Exponent, 8, 0, Specials::NanOnly, "__nv_fp8_e8m0",
     "float8_e8m0fnu", "", "f8E8M0FNU", 0, Overflow::Saturate},
    {"f4e2m1", 4, Encoding::Float, 2, 1, Specials::None, "__nv_fp4_e2m1",
     "float4_e2m1fn_x2", "", "f4E2M1FN", 0, Overflow::Saturate},
    {"i8", 8, Encoding::Integer, 0, 0, Specials::None, "signed char", "int8",
     "i1", "i8", kQuantized, Overflow::Saturate},
};
} // namespace detail

/// Every element type, in table order: `for (const ElementType &t :
/// allElementTypes())`.
struct ElementTypes {
  constexpr const ElementType *begin() const {
    return std::begin(detail::kElementTypes);
  }
  constexpr const ElementType *end() const {
    return std::end(detail::kElementTypes);
  }
};
constexpr ElementTypes allElementTypes() { return {}; }

/// The table's row spelled `name`; null for an unknown spelling.
constexpr const ElementType *findElementType(std::string_view name) {
  for (const ElementType &type : allElementTypes())
    if (type.name == name)
      return &type;
  return nullptr;
}

/// The element type spelled `name`; nullopt for an unknown spelling.
inline std::optional<ElementType> elementTypeNamed(std::string_view name) {
  if (const ElementType *type = findElementType(name))
    return *type;
  return std::nullopt;
}

/// `names` as a message lists them: "a, b or c".
std::string listForMessage(const std::vector<std::string_view> &names);

/// The types with any of the `roles` bits, as a message lists them: "f32,
/// f16 or bf16", in the table's spelling or another of its columns.
std::string elementTypesWithRole(
    unsigned roles,
    std::string_view ElementType::*spelling = &ElementType::name);

} // namespace normc

#endif // NORMC_ABI_ELEMENTTYPE_H
