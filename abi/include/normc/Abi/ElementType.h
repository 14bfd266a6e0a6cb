//===- ElementType.h - The element types of kernel arguments --------------===//
//
// The one table of element types: how specs, the IR (MLIR's builtin
// types), the launch facts, packs and Python spell each one, its width (from
// which every host sizes its buffers), the CUDA type the emitter declares, and
// its encoding, from which its range follows. A type narrower than a byte is
// packed, 8 / bits elements a byte, the first in the low bits.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_ABI_ELEMENTTYPE_H
#define NORMC_ABI_ELEMENTTYPE_H

#include <cstdint>
#include <optional>
#include <string_view>

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

  std::string_view name; // "bf16", "f32", "f8e4m3", ...
  int64_t bits;
  Encoding encoding;
  int exponentBits; // Float and Exponent
  int mantissaBits; // Float: explicit fraction bits
  Specials specials;
  std::string_view cudaName;  // "__nv_bfloat16", ...
  std::string_view torchName; // the torch dtype's attribute, "" if none
  std::string_view mlirName;  // MLIR's builtin type: "bf16", "f8E4M3FN", ...

  /// Bytes that hold `count` elements, packed.
  int64_t bytesFor(int64_t count) const { return (count * bits + 7) / 8; }
  bool packed() const { return bits < 8; }
  /// The largest finite value.
  double largestFinite() const;
  /// The smallest positive value (of a float, its smallest subnormal).
  double smallestPositive() const;
};

/// The element type spelled `name`; nullopt for an unknown spelling.
std::optional<ElementType> elementTypeNamed(std::string_view name);

/// Every element type, in table order: `for (const ElementType &t :
/// allElementTypes())`.
struct ElementTypes {
  const ElementType *begin() const;
  const ElementType *end() const;
};
inline ElementTypes allElementTypes() { return {}; }

} // namespace normc

#endif // NORMC_ABI_ELEMENTTYPE_H
