//===- Number.h - Whole numbers: read from text strictly, rounded ---------===//
#ifndef NORMC_ABI_NUMBER_H
#define NORMC_ABI_NUMBER_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace normc {

/// The whole number `text` spells: decimal digits, an optional leading '-',
/// nothing else (no spaces, no sign '+', no trailing letters: "64abc" is no
/// number), within int64_t; nullopt otherwise.
std::optional<int64_t> parseWholeNumber(std::string_view text);

/// ceil(a / b) for a >= 0, b > 0.
constexpr int64_t divideCeil(int64_t a, int64_t b) { return (a + b - 1) / b; }
/// The least power of two at least v (1 for v <= 1).
constexpr int64_t powerOf2Ceil(int64_t v) {
  int64_t p = 1;
  while (p < v)
    p *= 2;
  return p;
}
constexpr bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

} // namespace normc

#endif // NORMC_ABI_NUMBER_H
