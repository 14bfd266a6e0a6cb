//===- Number.h - Whole numbers read from text, strictly ------------------===//
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

} // namespace normc

#endif // NORMC_ABI_NUMBER_H
