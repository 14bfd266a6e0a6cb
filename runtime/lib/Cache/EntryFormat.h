//===- EntryFormat.h - The header of an on-disk cache entry ---------------===//
//
// An entry is a 48-byte header, then the payload:
//   bytes  0..7   magic "NORMCC2\n" (the digit is the format version)
//   bytes  8..15  payload length, little-endian
//   bytes 16..47  SHA-256 of key || "\n" || payload
// The key is part of the checksum, so an entry copied or renamed to another
// key's place (another spec's kernel) does not verify there.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_CACHE_ENTRYFORMAT_H
#define NORMC_RUNTIME_CACHE_ENTRYFORMAT_H

#include "Sha256.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace normc::cache {

constexpr size_t kHeaderSize = 48;
using Header = std::array<char, kHeaderSize>;

struct HeaderFields {
  uint64_t payloadSize;
  Digest checksum;
};

/// The checksum of `payload` stored under `key`.
Digest entryChecksum(std::string_view key, std::string_view payload);

/// The header to store before `payload` under `key`.
Header encodeHeader(std::string_view key, std::string_view payload);

/// The length and checksum a header announces, or nullopt when its magic is
/// not this format's.
std::optional<HeaderFields> decodeHeader(const Header &header);

} // namespace normc::cache

#endif // NORMC_RUNTIME_CACHE_ENTRYFORMAT_H
