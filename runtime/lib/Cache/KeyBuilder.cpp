//===- KeyBuilder.cpp - Cache keys from named parts -----------------------===//
//
// Each part is encoded as its name and its value, each preceded by its
// length (8 bytes, little-endian), so that no two different sequences of
// parts share an encoding. The encoding is versioned: changing it changes
// every key instead of reinterpreting old entries.
//
//===----------------------------------------------------------------------===//

#include "normc/Runtime/Cache/DiskCache.h"

#include <cstdint>

using namespace normc::cache;

namespace {

void appendLengthPrefixed(std::string &out, std::string_view text) {
  uint64_t size = text.size();
  for (int i = 0; i < 8; ++i)
    out += static_cast<char>(size >> (8 * i));
  out += text;
}

} // namespace

KeyBuilder &KeyBuilder::add(std::string_view name, std::string_view value) {
  appendLengthPrefixed(encoded, name);
  appendLengthPrefixed(encoded, value);
  return *this;
}

std::string KeyBuilder::hex() const {
  return sha256Hex("normc-cache-key-1\n" + encoded);
}
