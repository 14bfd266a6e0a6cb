//===- Sha256.h - SHA-256 digests of cache keys and entries ---------------===//
//
// A one-shot SHA-256 (FIPS 180-4): keys and payloads are hashed whole.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_CACHE_SHA256_H
#define NORMC_RUNTIME_CACHE_SHA256_H

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace normc::cache {

using Digest = std::array<uint8_t, 32>;

Digest sha256(std::string_view bytes);

/// The same digest without the processor's SHA extensions, which sha256
/// uses where there are some (sha256UsesShaExtensions).
Digest sha256Portable(std::string_view bytes);
bool sha256UsesShaExtensions();

/// Two lowercase hex digits per byte.
std::string toHex(const Digest &digest);

} // namespace normc::cache

#endif // NORMC_RUNTIME_CACHE_SHA256_H
