//===- KeyBuilderTest.cpp - Cache keys from named parts -------------------===//
//
// Equal parts give equal keys; changing, adding, dropping or reordering any
// part gives another key, and so does moving a boundary between a name and
// a value or between two parts.
//
//===----------------------------------------------------------------------===//

#include "normc/Runtime/Cache/DiskCache.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

using normc::cache::KeyBuilder;

namespace {

using Parts = std::vector<std::pair<std::string, std::string>>;

std::string keyOf(const Parts &parts) {
  KeyBuilder builder;
  for (const auto &[name, value] : parts)
    builder.add(name, value);
  return builder.hex();
}

const Parts kCudaKernel = {
    {"spec", "name = \"llama_rmsnorm\"\n[statistics]\ncenter = false\n"},
    {"schedule", "block=256 vector=8 rows_per_block=1"},
    {"normc", "0.1.0"},
    {"nvrtc", "13.0"},
    {"arch", "sm_90"},
    {"options", "-std=c++17 --use_fast_math=false"},
};

} // namespace

TEST(CacheKeyBuilder, SamePartsSameKey) {
  std::string key = keyOf(kCudaKernel);
  EXPECT_EQ(keyOf(kCudaKernel), key);
  ASSERT_EQ(key.size(), 64u);
  EXPECT_EQ(key.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(CacheKeyBuilder, AnyChangedPartChangesKey) {
  std::set<std::string> keys = {keyOf(kCudaKernel)};
  for (size_t i = 0; i < kCudaKernel.size(); ++i) {
    Parts value = kCudaKernel;
    value[i].second += " ";
    Parts name = kCudaKernel;
    name[i].first += "x";
    Parts dropped = kCudaKernel;
    dropped.erase(dropped.begin() + i);
    Parts swapped = kCudaKernel;
    std::swap(swapped[i], swapped[(i + 1) % swapped.size()]);
    for (const Parts &changed : {value, name, dropped, swapped})
      EXPECT_TRUE(keys.insert(keyOf(changed)).second) << "part " << i;
  }
  Parts added = kCudaKernel;
  added.push_back({"extra", ""});
  EXPECT_TRUE(keys.insert(keyOf(added)).second);
}

TEST(CacheKeyBuilder, BoundariesAreNotAmbiguous) {
  EXPECT_NE(keyOf({{"ab", "c"}}), keyOf({{"a", "bc"}}));
  EXPECT_NE(keyOf({{"n", "ab"}, {"m", "c"}}), keyOf({{"n", "a"}, {"m", "bc"}}));
  EXPECT_NE(keyOf({{"a", "b"}}), keyOf({{"a", ""}, {"b", ""}}));
  EXPECT_NE(keyOf({{"", ""}}), keyOf({}));
  // A value that spells out another part's encoding is still one value.
  std::string fake = std::string("\x01\0\0\0\0\0\0\0b", 9);
  EXPECT_NE(keyOf({{"a", fake}}), keyOf({{"a", ""}, {"b", ""}}));
}

TEST(CacheKeyBuilder, EncodingIsStable) {
  // Computed independently (Python: SHA-256 of "normc-cache-key-1\n" then,
  // per part, the name and the value each after its 8-byte little-endian
  // length). A change here orphans every cache entry users have.
  EXPECT_EQ(
      KeyBuilder().add("spec", "name = \"n\"\n").add("arch", "sm_90").hex(),
      "d8413f043ebb7ffe9ce1f9d1c5ce148563e3136eb5fd72d05eb5464b2652dcae");
  EXPECT_EQ(KeyBuilder().hex(),
            "b923dfa5c047e1be5b350bd5010ed13334bc9ba8d082df6c00f715b08fc849dd");
}
