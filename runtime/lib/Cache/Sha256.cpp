//===- Sha256.cpp - SHA-256 digests of cache keys and entries -------------===//
//
// Straight from FIPS 180-4, section 6.2: big-endian words, 64 rounds per
// 64-byte block, and a final block padded with 0x80, zeros and the message
// length in bits. On x86-64 processors with the SHA extensions the blocks go
// through them (about 8x faster: a 33 MiB precompiled header is checked on
// every read of the kernel cache).
//
//===----------------------------------------------------------------------===//

#include "Sha256.h"

#include "normc/Runtime/Cache/DiskCache.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define NORMC_SHA256_X86 1
#endif

using namespace normc::cache;

namespace {

constexpr uint32_t kRoundConstants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void compress(uint32_t state[8], const uint8_t block[64]) {
  uint32_t w[64];
  for (int t = 0; t < 16; ++t)
    w[t] = uint32_t(block[4 * t]) << 24 | uint32_t(block[4 * t + 1]) << 16 |
           uint32_t(block[4 * t + 2]) << 8 | uint32_t(block[4 * t + 3]);
  for (int t = 16; t < 64; ++t) {
    uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int t = 0; t < 64; ++t) {
    uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    uint32_t choose = (e & f) ^ (~e & g);
    uint32_t t1 = h + s1 + choose + kRoundConstants[t] + w[t];
    uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
    uint32_t t2 = s0 + majority;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

void compressPortable(uint32_t state[8], const uint8_t *data, size_t blocks) {
  for (size_t i = 0; i < blocks; ++i)
    compress(state, data + 64 * i);
}

#ifdef NORMC_SHA256_X86
/// The same rounds with the SHA extensions: the state as ABEF and CDGH,
/// four message words and four rounds (two sha256rnds2) at a time, the
/// schedule by sha256msg1/sha256msg2.
__attribute__((target("sha,sse4.1"))) void
compressShaExtensions(uint32_t state[8], const uint8_t *data, size_t blocks) {
  const __m128i byteSwap =
      _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i *>(state));
  __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i *>(state + 4));
  __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
  for (size_t b = 0; b < blocks; ++b, data += 64) {
    __m128i abefBefore = abef, cdghBefore = cdgh;
    __m128i w[4];
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i) {
      if (i < 4)
        w[i] = _mm_shuffle_epi8(
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(data + 16 * i)),
            byteSwap);
      else
        w[i % 4] = _mm_sha256msg2_epu32(
            _mm_add_epi32(_mm_sha256msg1_epu32(w[i % 4], w[(i + 1) % 4]),
                          _mm_alignr_epi8(w[(i + 3) % 4], w[(i + 2) % 4], 4)),
            w[(i + 3) % 4]);
      __m128i k = _mm_loadu_si128(
          reinterpret_cast<const __m128i *>(kRoundConstants + 4 * i));
      __m128i wk = _mm_add_epi32(w[i % 4], k);
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
    }
    abef = _mm_add_epi32(abef, abefBefore);
    cdgh = _mm_add_epi32(cdgh, cdghBefore);
  }
  __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128(reinterpret_cast<__m128i *>(state),
                   _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128(reinterpret_cast<__m128i *>(state + 4),
                   _mm_alignr_epi8(dchg, feba, 8));
}
#endif

Digest digestOf(std::string_view bytes,
                void (*compressBlocks)(uint32_t *, const uint8_t *, size_t)) {
  uint32_t state[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  const auto *data = reinterpret_cast<const uint8_t *>(bytes.data());
  size_t whole = bytes.size() / 64 * 64;
  compressBlocks(state, data, whole / 64);

  // The tail, 0x80, zeros, and the bit length: one block, or two when the
  // tail leaves fewer than 9 bytes for the 0x80 and the length.
  uint8_t last[128] = {};
  size_t tail = bytes.size() - whole;
  for (size_t i = 0; i < tail; ++i)
    last[i] = data[whole + i];
  last[tail] = 0x80;
  size_t lastSize = tail < 56 ? 64 : 128;
  uint64_t bits = uint64_t(bytes.size()) * 8;
  for (int i = 0; i < 8; ++i)
    last[lastSize - 1 - i] = uint8_t(bits >> (8 * i));
  compressBlocks(state, last, lastSize / 64);

  Digest digest;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j)
      digest[4 * i + j] = uint8_t(state[i] >> (24 - 8 * j));
  return digest;
}

} // namespace

bool normc::cache::sha256UsesShaExtensions() {
#ifdef NORMC_SHA256_X86
  static const bool supported =
      __builtin_cpu_supports("sha") && __builtin_cpu_supports("sse4.1");
  return supported;
#else
  return false;
#endif
}

Digest normc::cache::sha256Portable(std::string_view bytes) {
  return digestOf(bytes, compressPortable);
}

Digest normc::cache::sha256(std::string_view bytes) {
#ifdef NORMC_SHA256_X86
  if (sha256UsesShaExtensions())
    return digestOf(bytes, compressShaExtensions);
#endif
  return digestOf(bytes, compressPortable);
}

std::string normc::cache::toHex(const Digest &digest) {
  static const char digits[] = "0123456789abcdef";
  std::string text;
  text.reserve(2 * digest.size());
  for (uint8_t byte : digest) {
    text += digits[byte >> 4];
    text += digits[byte & 15];
  }
  return text;
}

std::string normc::cache::sha256Hex(std::string_view bytes) {
  return toHex(sha256(bytes));
}
