//===- ElementType.h - The storage element types a kernel argument has ----===//
//
// One table of what a host needs of an element type: its spelling (as specs,
// the IR's launch facts and packs write it) and its width in bits, from
// which every host sizes its buffers. A type narrower than a byte is packed,
// several elements a byte.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_ABI_ELEMENTTYPE_H
#define NORMC_ABI_ELEMENTTYPE_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace normc {

struct ElementType {
  std::string_view name; // "bf16", "f32", "f8e4m3", ...
  int64_t bits;

  /// Bytes that hold `count` elements, packed.
  int64_t bytesFor(int64_t count) const { return (count * bits + 7) / 8; }
};

/// The element type spelled `name`; nullopt for an unknown spelling.
std::optional<ElementType> elementTypeNamed(std::string_view name);

} // namespace normc

#endif // NORMC_ABI_ELEMENTTYPE_H
