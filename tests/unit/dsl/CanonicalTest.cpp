//===- CanonicalTest.cpp - Spec::canonical as a cache key -----------------===//
//
// Specs that mean the same print the same canonical text, whatever their
// formatting, comments, key order or spelling of numbers; specs that differ
// in any key print differently.
//
//===----------------------------------------------------------------------===//
#include "SpecTestUtil.h"

#include <gtest/gtest.h>

using namespace normc::dsl;
using namespace normc::dsl::test;

namespace {

std::string canonicalOf(std::string_view text) {
  SpecParseResult r = parse(text);
  EXPECT_TRUE(r.spec) << text;
  return r.spec ? r.spec->canonical() : "";
}

const char *const kMinimal = "name = \"n\"\n[statistics]\ncenter = true\n";

} // namespace

TEST(Canonical, ExactText) {
  EXPECT_EQ(canonicalOf(kMinimal), R"(name = "n"

[statistics]
center = true
scale = true
fraction = 1.0
variance = "biased"

[epsilon]
value = 1e-05
placement = "inside_sqrt"

[affine]
gain = true
gain_offset = 0.0
bias = false
normalized = "accumulate"

[dtypes]
input = "f32"
output = "f32"
params = "f32"
accumulate = "f32"

[fusion]
residual_add = false
save_stats = false
)");
}

TEST(Canonical, SameMeaningSameText) {
  const char *const explicitAndCommented = R"(name = 'n'
# Every key written out, in another order, with other spellings.
[fusion]
save_stats = false
residual_add = false   # no fusion

[dtypes]
accumulate = 'f32'
params = "f32"
output = "f32"
input = "f32"

[affine]
bias = false
gain_offset = -0.0
gain = true

[epsilon]
placement = "inside_sqrt"
value = 0.000_01

[statistics]
variance = "biased"
fraction = 1
scale = true
center = true
)";
  const char *const dotted = "name=\"n\"\nstatistics.center=true\n"
                             "epsilon={value=10e-6}\n";
  EXPECT_EQ(canonicalOf(explicitAndCommented), canonicalOf(kMinimal));
  EXPECT_EQ(canonicalOf(dotted), canonicalOf(kMinimal));
}

TEST(Canonical, EveryKeyChangesTheText) {
  const std::string base = canonicalOf(kMinimal);
  const char *const changes[] = {
      "[statistics]\nscale = false\n",
      "[statistics]\nfraction = 0.5\n",
      "[statistics]\nvariance = \"unbiased\"\n",
      "[epsilon]\nvalue = 1e-6\n",
      "[epsilon]\nplacement = \"outside_sqrt\"\n",
      "[affine]\ngain = false\n",
      "[affine]\ngain_offset = 1.0\n",
      "[affine]\nbias = true\n",
      "[affine]\nnormalized = \"input\"\n",
      "[dtypes]\ninput = \"bf16\"\n",
      "[dtypes]\noutput = \"f16\"\n",
      "[dtypes]\nparams = \"bf16\"\n",
      "[dtypes]\naccumulate = \"f64\"\n",
      "[fusion]\nresidual_add = true\n",
      "[fusion]\nsave_stats = true\n",
      "[numerics]\nreproducible = true\n",
      "[fusion]\ngate = \"before\"\n",
      "[fusion]\ngate = \"after\"\n",
      "[fusion]\ngate = \"after_rounded\"\n",
      "[fusion]\ngate = \"after\"\ngate_activation = \"sigmoid\"\n",
  };
  std::vector<std::string> seen = {base};
  for (const char *change : changes) {
    // Every table but [statistics] comes after `center`; statistics keys are
    // spliced into that table instead of opening it twice.
    std::string text = kMinimal;
    std::string_view c = change;
    if (c.substr(0, 13) == "[statistics]\n")
      text += c.substr(13);
    else
      text += c;
    std::string canonical = canonicalOf(text);
    for (const std::string &other : seen)
      EXPECT_NE(canonical, other) << change;
    seen.push_back(canonical);
  }
  EXPECT_NE(canonicalOf("name = \"m\"\n[statistics]\ncenter = true\n"), base);
  EXPECT_NE(canonicalOf("name = \"n\"\n[statistics]\ncenter = false\n"), base);
}

TEST(Canonical, ParsesBackToTheSameSpec) {
  SpecParseResult r = parse("name = \"rt\"\n[statistics]\ncenter = true\n"
                            "variance = \"unbiased\"\nfraction = "
                            "0.30000000000000004\n[epsilon]\nvalue = "
                            "1.0000000000000001e-300\n[affine]\n"
                            "gain_offset = 3\nbias = true\n[dtypes]\n"
                            "accumulate = \"f64\"\ninput = \"f16\"\n");
  ASSERT_TRUE(r.spec);
  const std::string canonical = r.spec->canonical();
  EXPECT_NE(canonical.find("fraction = 0.30000000000000004\n"),
            std::string::npos);
  EXPECT_NE(canonical.find("gain_offset = 3.0\n"), std::string::npos);
  SpecParseResult again = parseSpecString(canonical, "canonical.toml");
  ASSERT_TRUE(again.spec) << canonical;
  EXPECT_TRUE(again.diagnostics.empty());
  EXPECT_EQ(again.spec->canonical(), canonical);
  EXPECT_EQ(again.spec->fraction.value, r.spec->fraction.value);
  EXPECT_EQ(again.spec->epsilon.value, r.spec->epsilon.value);
}

TEST(Canonical, IgnoresFileAndPositions) {
  SpecParseResult a = parseSpecString(kMinimal, "a.toml");
  SpecParseResult b =
      parseSpecString(std::string("\n\n") + kMinimal, "dir/b.toml");
  ASSERT_TRUE(a.spec && b.spec);
  EXPECT_EQ(a.spec->canonical(), b.spec->canonical());
}

TEST(Canonical, SpecBuiltInCode) {
  Spec s;
  s.name.value = "built";
  s.fraction.value = 1.0 / 3.0;
  const std::string canonical = s.canonical();
  EXPECT_EQ(canonical.substr(0, 14), "name = \"built\"");
  EXPECT_NE(canonical.find("fraction = 0.3333333333333333\n"),
            std::string::npos);
}

// Only a quantized spec has [quantize] (other specs keep their text, and
// cache keys); its defaults are written out, so that writing them or not
// means the same.
TEST(Canonical, QuantizeTableOnlyForFp8Outputs) {
  std::string plain = canonicalOf(kMinimal);
  EXPECT_EQ(plain.find("[quantize]"), std::string::npos);
  std::string fp8 =
      canonicalOf(std::string(kMinimal) + "[dtypes]\noutput = \"f8e4m3\"\n");
  EXPECT_NE(fp8.find("output = \"f8e4m3\"\n"), std::string::npos);
  EXPECT_NE(fp8.find("\n[quantize]\nscale = \"row\"\n"), std::string::npos);
  EXPECT_EQ(fp8, canonicalOf(std::string(kMinimal) +
                             "[dtypes]\noutput = \"f8e4m3\"\n"
                             "[quantize]\nscale = \"row\"\n"));
  EXPECT_NE(fp8, canonicalOf(std::string(kMinimal) +
                             "[dtypes]\noutput = \"f8e4m3\"\n"
                             "[quantize]\nscale = \"static\"\n"));
}

// Only a gated spec names its gate (the others keep their text); its
// activation is written out, so that writing the default or not means the
// same.
TEST(Canonical, GateKeysOnlyForGatedSpecs) {
  std::string plain = canonicalOf(kMinimal);
  EXPECT_EQ(plain,
            canonicalOf(std::string(kMinimal) + "[fusion]\ngate = \"none\"\n"));
  EXPECT_EQ(plain.find("gate"), std::string::npos);
  std::string gated =
      canonicalOf(std::string(kMinimal) + "[fusion]\ngate = \"before\"\n");
  EXPECT_NE(gated.find("save_stats = false\ngate = \"before\"\n"
                       "gate_activation = \"silu\"\n"),
            std::string::npos);
  EXPECT_EQ(gated, canonicalOf(std::string(kMinimal) +
                               "[fusion]\ngate = \"before\"\n"
                               "gate_activation = \"silu\"\n"));
}

// A spec without statistics names its method and none of the statistics'
// keys or epsilon; one with them keeps its text whether it names the method.
TEST(Canonical, MethodOnlyWithoutStatistics) {
  std::string plain = canonicalOf(kMinimal);
  EXPECT_EQ(plain, canonicalOf("name = \"n\"\n[statistics]\nmethod = "
                               "\"moments\"\ncenter = true\n"));
  EXPECT_EQ(plain.find("method"), std::string::npos);
  std::string tanh =
      canonicalOf("name = \"n\"\n[statistics]\nmethod = \"tanh\"\n");
  EXPECT_NE(tanh.find("[statistics]\nmethod = \"tanh\"\n\n[affine]\n"),
            std::string::npos)
      << tanh;
  for (const char *gone : {"center", "scale", "fraction", "[epsilon]"})
    EXPECT_EQ(tanh.find(gone), std::string::npos) << gone;
  EXPECT_EQ(tanh, canonicalOf("name = \"n\"\n[statistics]\nmethod = "
                              "\"tanh\"\ncenter = false\n"));
  std::string erf =
      canonicalOf("name = \"n\"\n[statistics]\nmethod = \"erf\"\n");
  EXPECT_NE(erf, tanh);
  EXPECT_EQ(erf, canonicalOf(erf));
}

// Only a reproducible spec has [numerics]; writing the default out means
// the same as leaving it out, and the table reads back.
TEST(Canonical, NumericsTableOnlyForReproducibleSpecs) {
  std::string plain = canonicalOf(kMinimal);
  EXPECT_EQ(plain.find("[numerics]"), std::string::npos);
  EXPECT_EQ(plain, canonicalOf(std::string(kMinimal) +
                               "[numerics]\nreproducible = false\n"));
  std::string reproducible =
      canonicalOf(std::string(kMinimal) + "[numerics]\nreproducible = true\n");
  EXPECT_EQ(reproducible, plain + "\n[numerics]\nreproducible = true\n");
  SpecParseResult again = parseSpecString(reproducible, "canonical.toml");
  ASSERT_TRUE(again.spec);
  EXPECT_TRUE(again.spec->reproducible.value);
  EXPECT_EQ(again.spec->canonical(), reproducible);
}
