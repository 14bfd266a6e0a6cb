//===- SpecKeyTest.cpp - Specs that mean the same share a cache entry -----===//
//
// The key covers the spec's canonical text (Spec::canonical), not the file:
// layout, comments, key order and the spelling of numbers do not matter;
// any value does.
//
//===----------------------------------------------------------------------===//

#include "CacheTestUtil.h"

#include "normc/Dsl/Spec.h"

using namespace normc::cache;
using namespace normc::cache::test;

namespace {

std::string keyOfSpec(std::string_view text) {
  normc::dsl::SpecParseResult parsed =
      normc::dsl::parseSpecString(text, "spec.toml");
  EXPECT_TRUE(parsed.spec) << text;
  if (!parsed.spec)
    return "";
  return KeyBuilder()
      .add("spec", parsed.spec->canonical())
      .add("schedule", "block=256")
      .add("normc", "0.1.0")
      .add("nvrtc", "13.0")
      .add("arch", "sm_90")
      .add("options", "-std=c++17")
      .hex();
}

const char *const kLlama = R"(# RMSNorm as in Llama.
name = "llama_rmsnorm"

[statistics]
center = false

[epsilon]
value = 1e-6
placement = "inside_sqrt"

[affine]
gain = true
bias = false

[dtypes]
input = "bf16"
output = "bf16"
params = "bf16"
accumulate = "f32"
)";

const char *const kLlamaRelaidOut = R"(name="llama_rmsnorm"
[dtypes]   # reordered tables and keys, other spellings
accumulate="f32"
params="bf16"
output="bf16"
input="bf16"
[affine]
bias=false
gain=true
[epsilon]
placement="inside_sqrt"
value=0.000_001
[statistics]
center=false
scale=true
)";

} // namespace

using CacheSpecKey = CacheTest;

TEST_F(CacheSpecKey, LayoutAndCommentsShareAnEntry) {
  std::string key = keyOfSpec(kLlama);
  EXPECT_EQ(keyOfSpec(kLlamaRelaidOut), key);

  DiskCache cache(dir);
  ASSERT_TRUE(cache.put(key, "kernel image"));
  EXPECT_EQ(cache.get(keyOfSpec(kLlamaRelaidOut)), "kernel image");
}

TEST_F(CacheSpecKey, AnyValueChangesTheKey) {
  std::string changed = kLlama;
  changed.replace(changed.find("1e-6"), 4, "1e-5");
  EXPECT_NE(keyOfSpec(changed), keyOfSpec(kLlama));

  DiskCache cache(dir);
  ASSERT_TRUE(cache.put(keyOfSpec(kLlama), "kernel image"));
  EXPECT_FALSE(cache.get(keyOfSpec(changed)));
}
