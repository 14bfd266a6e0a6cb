//===- EntryFormat.cpp - The header of an on-disk cache entry -------------===//

#include "EntryFormat.h"

#include <cstring>
#include <string>

using namespace normc::cache;

namespace {

constexpr char kMagic[] = "NORMCC2\n";
constexpr size_t kMagicSize = sizeof kMagic - 1;
constexpr size_t kSizeOffset = kMagicSize;
constexpr size_t kChecksumOffset = kSizeOffset + 8;
static_assert(kChecksumOffset + sizeof(Digest) == kHeaderSize);

} // namespace

Digest normc::cache::entryChecksum(std::string_view key,
                                   std::string_view payload) {
  std::string bytes;
  bytes.reserve(key.size() + 1 + payload.size());
  bytes.append(key).append(1, '\n').append(payload);
  return sha256(bytes);
}

Header normc::cache::encodeHeader(std::string_view key,
                                  std::string_view payload) {
  Header header;
  std::memcpy(header.data(), kMagic, kMagicSize);
  uint64_t size = payload.size();
  for (int i = 0; i < 8; ++i)
    header[kSizeOffset + i] = static_cast<char>(size >> (8 * i));
  Digest checksum = entryChecksum(key, payload);
  std::memcpy(header.data() + kChecksumOffset, checksum.data(),
              checksum.size());
  return header;
}

std::optional<HeaderFields> normc::cache::decodeHeader(const Header &header) {
  if (std::memcmp(header.data(), kMagic, kMagicSize) != 0)
    return std::nullopt;
  HeaderFields fields;
  fields.payloadSize = 0;
  for (int i = 0; i < 8; ++i) {
    auto byte = static_cast<unsigned char>(header[kSizeOffset + i]);
    fields.payloadSize |= uint64_t(byte) << (8 * i);
  }
  std::memcpy(fields.checksum.data(), header.data() + kChecksumOffset,
              fields.checksum.size());
  return fields;
}
