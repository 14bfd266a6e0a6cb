//===- Sha256Test.cpp - SHA-256 against the FIPS 180 test vectors ---------===//
//
// The vectors of FIPS 180-2 appendix B and NIST's examples, plus messages
// whose lengths straddle the padding boundaries (55/56 bytes: one or two
// final blocks; 64: an exact block), checked against Python's hashlib.
//
//===----------------------------------------------------------------------===//

#include "Sha256.h"
#include "normc/Runtime/Cache/DiskCache.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

using normc::cache::sha256Hex;

TEST(CacheSha256, EmptyMessage) {
  EXPECT_EQ(sha256Hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(CacheSha256, OneBlock) {
  EXPECT_EQ(sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(CacheSha256, TwoBlocks448Bits) {
  EXPECT_EQ(
      sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(CacheSha256, TwoBlocks896Bits) {
  EXPECT_EQ(sha256Hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                      "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrs"
                      "tu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(CacheSha256, OneMillionA) {
  EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(CacheSha256, PaddingBoundaries) {
  const std::pair<size_t, const char *> vectors[] = {
      {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
      {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
      {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
      {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
      {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
      {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
      {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
  };
  for (const auto &[length, digest] : vectors)
    EXPECT_EQ(sha256Hex(std::string(length, 'a')), digest) << length;
}

TEST(CacheSha256, HighBytes) {
  // Bytes of 0x80 and above are not sign-extended into the words.
  EXPECT_EQ(sha256Hex(std::string(1, '\0')),
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d");
  EXPECT_EQ(sha256Hex(std::string(1, '\xff')),
            "a8100ae6aa1940d0b663bb31cd466142ebbdbd5187131b92d93818987832eb89");
}

TEST(CacheSha256, TheShaExtensionsAgreeWithThePortableRounds) {
  // Where the processor has them, sha256 takes the SHA extensions; they
  // must give the portable rounds' digest for every length and byte.
  std::printf("sha256: %s\n", normc::cache::sha256UsesShaExtensions()
                                  ? "the processor's SHA extensions"
                                  : "portable rounds");
  std::mt19937 random(7);
  std::string bytes;
  for (size_t length :
       {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 4096, 100003}) {
    bytes.resize(length);
    for (char &c : bytes)
      c = static_cast<char>(random());
    EXPECT_EQ(normc::cache::sha256(bytes), normc::cache::sha256Portable(bytes))
        << length;
  }
}
