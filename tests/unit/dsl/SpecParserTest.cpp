//===- SpecParserTest.cpp - Reading valid specs ---------------------------===//
//
// Every key lands in its Spec field with the position of its value; every
// key left out has the default of docs/spec.md and no position.
//
//===----------------------------------------------------------------------===//
#include "SpecTestUtil.h"

#include <gtest/gtest.h>

using namespace normc::dsl;
using namespace normc::dsl::test;

namespace {

/// Expects `field` to hold `value`, written at LINE:COL of kFile.
template <typename T>
void expectAt(const Located<T> &field, const T &value, unsigned line,
              unsigned column) {
  EXPECT_EQ(field.value, value);
  EXPECT_EQ(field.loc.file, kFile);
  EXPECT_EQ(field.loc.line, line);
  EXPECT_EQ(field.loc.column, column);
}

/// Expects `field` to hold the default `value`, with no position.
template <typename T>
void expectDefault(const Located<T> &field, const T &value) {
  EXPECT_EQ(field.value, value);
  EXPECT_EQ(field.loc.file, "");
  EXPECT_EQ(field.loc.line, 0u);
  EXPECT_EQ(field.loc.column, 0u);
}

const char *const kEveryKey = R"(name = "my_norm"

[statistics]
center = true
scale = false
fraction = 0.25
variance = "unbiased"

[epsilon]
value = 1e-6
placement = "outside_sqrt"

[affine]
gain = true
gain_offset = 1.0
bias = true

[dtypes]
input = "bf16"
output = "f16"
params = "bf16"
accumulate = "f64"

[fusion]
residual_add = true
save_stats = true
)";

} // namespace

TEST(SpecParser, ReadsEveryKeyWithThePositionOfItsValue) {
  SpecParseResult r = parse(kEveryKey);
  ASSERT_TRUE(r.spec) << ::testing::PrintToString(messages(r));
  EXPECT_TRUE(r.diagnostics.empty());
  const Spec &s = *r.spec;
  EXPECT_EQ(s.file, kFile);
  expectAt(s.name, std::string("my_norm"), 1, 8);
  expectAt(s.center, true, 4, 10);
  expectAt(s.scale, false, 5, 9);
  expectAt(s.fraction, 0.25, 6, 12);
  expectAt(s.variance, Variance::Unbiased, 7, 12);
  expectAt(s.epsilon, 1e-6, 10, 9);
  expectAt(s.placement, EpsilonPlacement::OutsideSqrt, 11, 13);
  expectAt(s.gain, true, 14, 8);
  expectAt(s.gainOffset, 1.0, 15, 15);
  expectAt(s.bias, true, 16, 8);
  expectAt(s.input, DType::BF16, 19, 9);
  expectAt(s.output, DType::F16, 20, 10);
  expectAt(s.params, DType::BF16, 21, 10);
  expectAt(s.accumulate, DType::F64, 22, 14);
  expectAt(s.residualAdd, true, 25, 16);
  expectAt(s.saveStats, true, 26, 14);
}

TEST(SpecParser, KeysLeftOutHaveTheContractDefaults) {
  SpecParseResult r = parse("name = \"n\"\n[statistics]\ncenter = false\n");
  ASSERT_TRUE(r.spec) << ::testing::PrintToString(messages(r));
  EXPECT_TRUE(r.diagnostics.empty());
  const Spec &s = *r.spec;
  expectAt(s.name, std::string("n"), 1, 8);
  expectAt(s.center, false, 3, 10);
  expectDefault(s.scale, true);
  expectDefault(s.fraction, 1.0);
  expectDefault(s.variance, Variance::Biased);
  expectDefault(s.epsilon, 1e-5);
  expectDefault(s.placement, EpsilonPlacement::InsideSqrt);
  expectDefault(s.gain, true);
  expectDefault(s.gainOffset, 0.0);
  expectDefault(s.bias, false);
  expectDefault(s.input, DType::F32);
  expectDefault(s.output, DType::F32);
  expectDefault(s.params, DType::F32);
  expectDefault(s.accumulate, DType::F32);
  expectDefault(s.residualAdd, false);
  expectDefault(s.saveStats, false);
}

TEST(SpecParser, EmptyTablesKeepTheDefaults) {
  SpecParseResult r = parse("name = \"n\"\n[statistics]\ncenter = true\n"
                            "[epsilon]\n[affine]\n[dtypes]\n[fusion]\n");
  ASSERT_TRUE(r.spec) << ::testing::PrintToString(messages(r));
  expectDefault(r.spec->epsilon, 1e-5);
  expectDefault(r.spec->gain, true);
  expectDefault(r.spec->input, DType::F32);
  expectDefault(r.spec->saveStats, false);
}

TEST(SpecParser, AcceptsIntegersWhereAFloatIsExpected) {
  SpecParseResult r = parse("name = \"n\"\n[statistics]\ncenter = true\n"
                            "fraction = 1\n[epsilon]\nvalue = 0\n"
                            "[affine]\ngain_offset = -2\n");
  ASSERT_TRUE(r.spec) << ::testing::PrintToString(messages(r));
  expectAt(r.spec->fraction, 1.0, 4, 12);
  expectAt(r.spec->epsilon, 0.0, 6, 9);
  expectAt(r.spec->gainOffset, -2.0, 8, 15);
}

TEST(SpecParser, AcceptsEveryTomlWayOfWritingTables) {
  // Dotted keys, inline tables, quoted keys and literal strings.
  SpecParseResult r =
      parse("name = 'n'\n"
            "statistics.center = true\n"
            "dtypes = { input = 'bf16', \"output\" = \"f16\" }\n"
            "[epsilon]\n"
            "\"value\" = 1e-3 # comment\n");
  ASSERT_TRUE(r.spec) << ::testing::PrintToString(messages(r));
  expectAt(r.spec->name, std::string("n"), 1, 8);
  expectAt(r.spec->center, true, 2, 21);
  expectAt(r.spec->input, DType::BF16, 3, 20);
  expectAt(r.spec->output, DType::F16, 3, 39);
  expectAt(r.spec->epsilon, 1e-3, 5, 11);
}

TEST(SpecParser, ColumnsCountCharactersNotBytes) {
  // "ü" is two bytes in UTF-8 but one column, as TOML++ counts.
  SpecParseResult r =
      parse("name = \"n\"\n"
            "statistics = { \"ü\" = 1, center = true, fraction = 2 }\n");
  EXPECT_EQ(messages(r),
            (std::vector<std::string>{
                "t.toml:2:16: error: unknown key 'ü' in [statistics]; the "
                "closest known key is 'scale'",
                "t.toml:2:51: error: 'fraction' must be in (0, 1], got 2"}));
}

TEST(SpecParser, NameRules) {
  // gamma and exit: only the C library declares them (HeaderNamesTest).
  for (const char *name : {"a", "_x9", "RMSNorm_2", "gamma", "exit"}) {
    SpecParseResult r = parse("name = \"" + std::string(name) +
                              "\"\n[statistics]\ncenter = true\n");
    ASSERT_TRUE(r.spec) << name;
    EXPECT_EQ(r.spec->name.value, name);
  }
  // "_" would derive the backward kernel "__backward", a reserved name.
  SpecParseResult underscore =
      parse("name = \"_\"\n[statistics]\ncenter = true\n");
  EXPECT_EQ(messages(underscore),
            (std::vector<std::string>{
                "t.toml:1:8: error: 'name' becomes the kernel symbol "
                "'__backward' and cannot be a C++ keyword or a reserved name, "
                "got \"_\": '__backward' is reserved (names starting with __, "
                "_X, normc_ or NORMC_)"}));
  std::string longest(64, 'n');
  SpecParseResult r =
      parse("name = \"" + longest + "\"\n[statistics]\ncenter = true\n");
  ASSERT_TRUE(r.spec);
  EXPECT_EQ(r.spec->name.value, longest);
}

TEST(SpecParser, ByteOrderMarkTakesNoColumn) {
  SpecParseResult r = parse("\xEF\xBB\xBFname = \"a-b\"\n[statistics]\n"
                            "center = true\n");
  EXPECT_EQ(messages(r), std::vector<std::string>{
                             "t.toml:1:8: error: 'name' must be a C identifier "
                             "([A-Za-z_][A-Za-z0-9_]*), got \"a-b\""});
}
