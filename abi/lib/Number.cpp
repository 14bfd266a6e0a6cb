//===- Number.cpp - Whole numbers read from text, strictly ----------------===//
#include "normc/Abi/Number.h"

#include <charconv>

std::optional<int64_t> normc::parseWholeNumber(std::string_view text) {
  int64_t value = 0;
  const char *end = text.data() + text.size();
  auto [at, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || at != end)
    return std::nullopt;
  return value;
}
