//===- SpecErrorsTest.cpp - Errors for specs that make no sense -----------===//
//
// Each error of docs/spec.md ("Rejected specs" and "Diagnostics"), checked
// by its exact printed text and position.
//
//===----------------------------------------------------------------------===//
#include "SpecTestUtil.h"

#include <gtest/gtest.h>

using namespace normc::dsl;
using namespace normc::dsl::test;

namespace {

using Lines = std::vector<std::string>;

/// The printed diagnostics of a spec that starts with `name = "t"` and a
/// [statistics] table holding `center = true` (lines 1-3), then `rest`.
Lines afterCenter(std::string_view rest) {
  return messages(
      parse("name = \"t\"\n[statistics]\ncenter = true\n" + std::string(rest)));
}

/// Expects `text` to be rejected with exactly `expected`.
void expectErrors(std::string_view text, const Lines &expected) {
  SpecParseResult r = parse(text);
  EXPECT_FALSE(r.spec);
  EXPECT_EQ(messages(r), expected);
}

} // namespace

TEST(SpecErrors, SyntaxErrorAtTheParsersPosition) {
  expectErrors("name = \"t\"\n[statistics]\ncenter = = true\n",
               {"t.toml:3:10: error: Error while parsing value: could not "
                "determine value type"});
  expectErrors("name = \"t\"\n[statistics\n",
               {"t.toml:2:12: error: Error while parsing table header: "
                "expected ']', saw '\\n'"});
  expectErrors(
      "name = \"t\"\n[statistics]\ncenter = true\ncenter = false\n",
      {"t.toml:4:10: error: Error while parsing key-value pair: cannot "
       "redefine existing boolean 'center'"});
}

TEST(SpecErrors, SyntaxErrorIsOneLine) {
  // TOML++ quotes the bad input, newline included; the message escapes it.
  expectErrors("name = \"t\"\n[statistics]\ncenter = tru\n",
               {"t.toml:3:13: error: Error while parsing boolean: expected "
                "'true', saw 'tru\\n'"});
}

TEST(SpecErrors, MissingName) {
  expectErrors("[statistics]\ncenter = true\n",
               {"t.toml:1:1: error: missing required key 'name'"});
}

TEST(SpecErrors, MissingCenterPointsAtTheStatisticsHeader) {
  expectErrors("name = \"t\"\n\n[statistics]\nscale = true\n",
               {"t.toml:3:1: error: missing required key 'center' in "
                "[statistics]"});
}

TEST(SpecErrors, MissingStatisticsTablePointsAtTheFileStart) {
  expectErrors("name = \"t\"\n[epsilon]\nvalue = 1e-5\n",
               {"t.toml:1:1: error: missing required key 'center' in "
                "[statistics]"});
  expectErrors("", {"t.toml:1:1: error: missing required key 'name'",
                    "t.toml:1:1: error: missing required key 'center' in "
                    "[statistics]"});
}

TEST(SpecErrors, NameMustBeACIdentifier) {
  for (const char *bad : {"", "3x", "a-b", "a b", "é", "x.y"}) {
    std::string text =
        "name = \"" + std::string(bad) + "\"\n[statistics]\ncenter = true\n";
    expectErrors(text, {"t.toml:1:8: error: 'name' must be a C identifier "
                        "([A-Za-z_][A-Za-z0-9_]*), got \"" +
                        std::string(bad) + "\""});
  }
  // Quoted as written, literal string included.
  expectErrors("name = '3x'\n[statistics]\ncenter = true\n",
               {"t.toml:1:8: error: 'name' must be a C identifier "
                "([A-Za-z_][A-Za-z0-9_]*), got '3x'"});
}

TEST(SpecErrors, NameAtMost64Characters) {
  expectErrors("name = \"" + std::string(65, 'n') +
                   "\"\n[statistics]\ncenter = true\n",
               {"t.toml:1:8: error: 'name' must be at most 64 characters "
                "long, got 65"});
}

TEST(SpecErrors, UnknownKeyInATableSuggestsTheClosest) {
  EXPECT_EQ(afterCenter("fractoin = 0.5\n"),
            Lines{"t.toml:4:1: error: unknown key 'fractoin' in "
                  "[statistics]; did you mean 'fraction'?"});
  EXPECT_EQ(afterCenter("[dtypes]\naccum = \"f32\"\n"),
            Lines{"t.toml:5:1: error: unknown key 'accum' in [dtypes]; did "
                  "you mean 'accumulate'?"});
  EXPECT_EQ(
      afterCenter("[epsilon]\neps = 1e-5\n"),
      Lines{"t.toml:5:1: error: unknown key 'eps' in [epsilon]; the closest "
            "known key is 'value'"});
}

TEST(SpecErrors, UnknownKeyThatBelongsElsewhereSaysWhere) {
  EXPECT_EQ(afterCenter("gain = true\n"),
            Lines{"t.toml:4:1: error: unknown key 'gain' in [statistics]; it "
                  "belongs in [affine]"});
  EXPECT_EQ(afterCenter("[fusion]\nname = \"x\"\n"),
            Lines{"t.toml:5:1: error: unknown key 'name' in [fusion]; it "
                  "belongs at the top level"});
  expectErrors("value = 1e-5\nname = \"t\"\n[statistics]\ncenter = true\n",
               {"t.toml:1:1: error: unknown key 'value'; it belongs in "
                "[epsilon]"});
  EXPECT_EQ(afterCenter("[fusion]\nresidual = \"f32\"\n"),
            Lines{"t.toml:5:1: error: unknown key 'residual' in [fusion]; it "
                  "belongs in [dtypes]"});
}

TEST(SpecErrors, AValueThatFitsNoOtherTableSuggestsAKeyHere) {
  // [dtypes] has a 'residual' (a type name); a boolean is residual_add.
  EXPECT_EQ(afterCenter("[fusion]\nresidual = true\n"),
            Lines{"t.toml:5:1: error: unknown key 'residual' in [fusion]; did "
                  "you mean 'residual_add'?"});
}

TEST(SpecErrors, UnknownTopLevelKeyOrTableSuggestsTheClosest) {
  expectErrors("nmae = \"t\"\n[statistics]\ncenter = true\n",
               {"t.toml:1:1: error: missing required key 'name'",
                "t.toml:1:1: error: unknown key 'nmae'; did you mean "
                "'name'?"});
  EXPECT_EQ(afterCenter("[dtype]\ninput = \"f32\"\n"),
            Lines{"t.toml:4:2: error: unknown table [dtype]; did you mean "
                  "[dtypes]?"});
  EXPECT_EQ(
      afterCenter("[kernel]\n"),
      Lines{"t.toml:4:2: error: unknown table [kernel]; the closest known "
            "table is [affine]"});
  expectErrors(
      "version = 2\nname = \"t\"\n[statistics]\ncenter = true\n",
      {"t.toml:1:1: error: unknown key 'version'; the closest known key is "
       "'epsilon'"});
}

TEST(SpecErrors, UnknownSubtable) {
  EXPECT_EQ(
      afterCenter("[statistics.extra]\nx = 1\n"),
      Lines{"t.toml:4:13: error: unknown key 'extra' in [statistics]; the "
            "closest known key is 'center'"});
}

TEST(SpecErrors, WrongTomlTypes) {
  expectErrors("name = 1\n[statistics]\ncenter = \"yes\"\nscale = 1\n"
               "fraction = \"half\"\nvariance = 0\n",
               {"t.toml:1:8: error: 'name' must be a string, got integer",
                "t.toml:3:10: error: 'center' must be a boolean, got string",
                "t.toml:4:9: error: 'scale' must be a boolean, got integer",
                "t.toml:5:12: error: 'fraction' must be a number, got string",
                "t.toml:6:12: error: 'variance' must be a string, got "
                "integer"});
  EXPECT_EQ(afterCenter("[epsilon]\nvalue = 1979-05-27\nplacement = 07:32:00\n"
                        "[affine]\ngain = [true]\n"
                        "bias = 1979-05-27T07:32:00Z\n"
                        "gain_offset = true\n[fusion]\n"
                        "save_stats = { a = 1 }\nresidual_add = 1.0\n"),
            (Lines{"t.toml:5:9: error: 'value' must be a number, got date",
                   "t.toml:6:13: error: 'placement' must be a string, got time",
                   "t.toml:8:8: error: 'gain' must be a boolean, got array",
                   "t.toml:9:8: error: 'bias' must be a boolean, got date-time",
                   "t.toml:10:15: error: 'gain_offset' must be a number, got "
                   "boolean",
                   "t.toml:12:14: error: 'save_stats' must be a boolean, got "
                   "table",
                   "t.toml:13:16: error: 'residual_add' must be a boolean, "
                   "got float"}));
}

TEST(SpecErrors, TablesMustBeTables) {
  expectErrors("name = \"t\"\nstatistics = 3\nepsilon = \"a\"\n",
               {"t.toml:2:14: error: 'statistics' must be a table, got "
                "integer",
                "t.toml:3:11: error: 'epsilon' must be a table, got string"});
  expectErrors("name = \"t\"\n[[statistics]]\ncenter = true\n",
               {"t.toml:2:1: error: 'statistics' must be a table, got array"});
}

TEST(SpecErrors, FractionMustBeInZeroToOne) {
  const std::pair<const char *, const char *> bad[] = {
      {"1.5", "1.5"},
      {"15e-1", "15e-1"},
      {"0", "0"},
      {"0.0", "0.0"},
      {"-0.5", "-0.5"},
      {"2", "2"},
      {"nan", "nan"},
      {"inf", "inf"},
      {"-inf", "-inf"},
      {"1_000", "1_000"},
      {"1.0000001", "1.0000001"}};
  for (auto [value, printed] : bad)
    EXPECT_EQ(afterCenter("fraction = " + std::string(value) + "\n"),
              Lines{"t.toml:4:12: error: 'fraction' must be in (0, 1], got " +
                    std::string(printed)});
  for (const char *good : {"1", "1.0", "0.5", "1e-300", "0.0625"})
    EXPECT_EQ(afterCenter("fraction = " + std::string(good) + "\n"), Lines{});
}

TEST(SpecErrors, EpsilonMustBeFiniteAndNonNegative) {
  for (const char *value : {"-1e-5", "-1", "inf", "+inf", "nan", "-0.1"})
    EXPECT_EQ(afterCenter("[epsilon]\nvalue = " + std::string(value) + "\n"),
              Lines{"t.toml:5:9: error: 'value' must be a finite number >= "
                    "0, got " +
                    std::string(value)});
  for (const char *good : {"0", "0.0", "-0.0", "1e-12", "1"})
    EXPECT_EQ(afterCenter("[epsilon]\nvalue = " + std::string(good) + "\n"),
              Lines{});
}

TEST(SpecErrors, GainOffsetMustBeFinite) {
  for (const char *value : {"inf", "-inf", "nan"})
    EXPECT_EQ(
        afterCenter("[affine]\ngain_offset = " + std::string(value) + "\n"),
        Lines{"t.toml:5:15: error: 'gain_offset' must be a finite "
              "number, got " +
              std::string(value)});
}

TEST(SpecErrors, UnknownEnumValuesListTheAllowedOnes) {
  EXPECT_EQ(afterCenter("variance = \"unbias\"\n"),
            Lines{"t.toml:4:12: error: 'variance' must be one of \"biased\", "
                  "\"unbiased\", got \"unbias\""});
  EXPECT_EQ(afterCenter("[epsilon]\nplacement = 'inside'\n"),
            Lines{"t.toml:5:13: error: 'placement' must be one of "
                  "\"inside_sqrt\", \"outside_sqrt\", got 'inside'"});
  EXPECT_EQ(afterCenter("[dtypes]\naccumulate = \"fp32\"\n"),
            Lines{"t.toml:5:14: error: 'accumulate' must be one of \"f64\", "
                  "\"f32\", \"f16\", \"bf16\", got \"fp32\""});
  EXPECT_EQ(
      afterCenter("[dtypes]\noutput = \"BF16\"\n"),
      Lines{"t.toml:5:10: error: 'output' must be one of \"f32\", "
            "\"f16\", \"bf16\", \"f8e4m3\", \"f8e5m2\", \"i8\", got \"BF16\""});
}

TEST(SpecErrors, F64IsOnlyAnAccumulateType) {
  EXPECT_EQ(
      afterCenter("[dtypes]\ninput = \"f64\"\noutput = \"f64\"\n"
                  "params = \"f64\"\naccumulate = \"f64\"\n"),
      (Lines{"t.toml:5:9: error: 'input' must be one of \"f32\", "
             "\"f16\", \"bf16\", got \"f64\"",
             "t.toml:6:10: error: 'output' must be one of \"f32\", "
             "\"f16\", \"bf16\", \"f8e4m3\", \"f8e5m2\", \"i8\", got \"f64\"",
             "t.toml:7:10: error: 'params' must be one of \"f32\", "
             "\"f16\", \"bf16\", got \"f64\""}));
}

TEST(SpecErrors, NeitherCenterNorScale) {
  expectErrors("name = \"t\"\n[statistics]\ncenter = false\nscale = false\n",
               {"t.toml:4:9: error: 'center' and 'scale' cannot both be false "
                "(nothing would be normalized)"});
}

TEST(SpecErrors, CenterWithoutScaleIsFine) {
  EXPECT_EQ(afterCenter("scale = false\n"), Lines{});
}

TEST(SpecErrors, UnbiasedNeedsCenter) {
  expectErrors("name = \"t\"\n[statistics]\ncenter = false\n"
               "variance = \"unbiased\"\n",
               {"t.toml:4:12: error: 'variance' can be \"unbiased\" only with "
                "'center = true'"});
  EXPECT_EQ(afterCenter("variance = \"unbiased\"\n"), Lines{});
}

// The keys of docs/fp8.md: [quantize] only with an fp8 output, block in
// range and only with block scales (which this build does not have yet).
TEST(SpecErrors, QuantizeKeys) {
  EXPECT_EQ(afterCenter("[quantize]\nscale = \"static\"\n"),
            Lines{"t.toml:5:9: error: [quantize] needs a quantized output "
                  "(dtypes.output = \"f8e4m3\", \"f8e5m2\" or \"i8\"), but "
                  "the output is \"f32\""});
  EXPECT_EQ(afterCenter("[dtypes]\noutput = \"i8\"\n[quantize]\n"
                        "scale = \"block\"\n"),
            Lines{"t.toml:7:9: error: an \"i8\" output takes scale = \"row\" "
                  "or \"static\", not \"block\""});
  EXPECT_EQ(afterCenter("[dtypes]\noutput = \"i8\"\n[quantize]\n"
                        "scale = \"static\"\n"),
            Lines{});
  EXPECT_EQ(afterCenter("[dtypes]\noutput = \"f8e5m2\"\n[quantize]\n"
                        "block = 2048\n"),
            Lines{"t.toml:7:9: error: 'block' must be a power of two in [16, "
                  "1024], got 2048"});
  EXPECT_EQ(afterCenter("[dtypes]\noutput = \"f8e5m2\"\n[quantize]\n"
                        "block = 256\n"),
            Lines{"t.toml:7:9: error: 'block' applies only with scale = "
                  "\"block\", but the scale is \"row\""});
  EXPECT_EQ(afterCenter("[dtypes]\noutput = \"f8e4m3\"\n[quantize]\n"
                        "scale = \"block\"\nblock = 64\n"),
            Lines{});
  EXPECT_EQ(afterCenter("[dtypes]\noutput = \"f8e4m3\"\n[quantize]\n"
                        "scale = \"static\"\n"),
            Lines{});
}

// A gate (docs/spec.md, "Gates"): its activation only with a gate, and no
// rounded y to gate with an fp8 output.
TEST(SpecErrors, GateKeys) {
  EXPECT_EQ(afterCenter("[fusion]\ngate = \"inside\"\n"),
            Lines{"t.toml:5:8: error: 'gate' must be one of \"none\", "
                  "\"before\", \"after\", \"after_rounded\", got "
                  "\"inside\""});
  EXPECT_EQ(afterCenter("[fusion]\ngate_activation = \"sigmoid\"\n"),
            Lines{"t.toml:5:19: error: 'gate_activation' applies only with a "
                  "gate, but [fusion] gate is \"none\""});
  EXPECT_EQ(afterCenter("[fusion]\ngate_activation = \"tanh\"\n"),
            Lines{"t.toml:5:19: error: 'gate_activation' must be one of "
                  "\"silu\", \"sigmoid\", got \"tanh\""});
  EXPECT_EQ(afterCenter("[dtypes]\noutput = \"f8e4m3\"\n[fusion]\n"
                        "gate = \"after_rounded\"\n"),
            Lines{"t.toml:7:8: error: 'gate' cannot be \"after_rounded\" "
                  "with an fp8 output (y is quantized, not rounded to a type "
                  "to gate); \"after\" gates y before it is quantized"});
  EXPECT_EQ(afterCenter("[dtypes]\noutput = \"f8e4m3\"\n[fusion]\n"
                        "gate = \"after\"\ngate_activation = \"sigmoid\"\n"),
            Lines{});
  EXPECT_EQ(afterCenter("[fusion]\ngate = \"before\"\nresidual_add = true\n"),
            Lines{});
}

// Dynamic Tanh and Derf have no statistics: center is not required, and
// every key that shapes statistics is refused where it is written.
TEST(SpecErrors, TanhAndErfTakeNoStatisticsKeys) {
  auto method = [](std::string_view rest) {
    return messages(parse("name = \"t\"\n[statistics]\nmethod = \"tanh\"\n" +
                          std::string(rest)));
  };
  EXPECT_EQ(method(""), Lines{});
  EXPECT_EQ(method("center = false\n"), Lines{});
  EXPECT_EQ(method("center = true\n"),
            Lines{"t.toml:4:10: error: 'center' must be absent or false with "
                  "method = \"tanh\" (there is no mean)"});
  EXPECT_EQ(method("scale = true\nfraction = 0.5\n"),
            (Lines{"t.toml:4:9: error: 'scale' applies only to statistics, "
                   "but method = \"tanh\" computes none",
                   "t.toml:5:12: error: 'fraction' applies only to "
                   "statistics, but method = \"tanh\" computes none"}));
  EXPECT_EQ(method("variance = \"unbiased\"\n"),
            Lines{"t.toml:4:12: error: 'variance' applies only to statistics, "
                  "but method = \"tanh\" computes none"});
  EXPECT_EQ(method("[fusion]\nsave_stats = false\n"), Lines{});
  EXPECT_EQ(method("[epsilon]\nvalue = 1e-6\n[fusion]\nsave_stats = true\n"),
            (Lines{"t.toml:5:9: error: [epsilon] 'value' applies only to "
                   "statistics, but method = \"tanh\" computes none",
                   "t.toml:7:14: error: 'save_stats' applies only to "
                   "statistics, but method = \"tanh\" computes none"}));
  EXPECT_EQ(messages(parse("name = \"t\"\n[statistics]\nmethod = \"erf\"\n"
                           "[epsilon]\nplacement = \"outside_sqrt\"\n")),
            Lines{"t.toml:5:13: error: [epsilon] 'placement' applies only to "
                  "statistics, but method = \"erf\" computes none"});
  EXPECT_EQ(messages(parse("name = \"t\"\n[statistics]\nmethod = \"cosh\"\n")),
            (Lines{"t.toml:2:1: error: missing required key 'center' in "
                   "[statistics]",
                   "t.toml:3:10: error: 'method' must be one of \"moments\", "
                   "\"tanh\", \"erf\", got \"cosh\""}));
  // With statistics center stays required.
  EXPECT_EQ(messages(parse("name = \"t\"\n[statistics]\nmethod = "
                           "\"moments\"\n")),
            Lines{"t.toml:2:1: error: missing required key 'center' in "
                  "[statistics]"});
  // Gates, quantized outputs and the residual stream combine with both.
  EXPECT_EQ(method("[fusion]\ngate = \"before\"\nresidual_add = true\n"
                   "[dtypes]\noutput = \"f8e4m3\"\n"),
            Lines{});
}

TEST(SpecErrors, GainOffsetNeedsGain) {
  EXPECT_EQ(afterCenter("[affine]\ngain = false\ngain_offset = 1.0\n"),
            Lines{"t.toml:6:15: error: 'gain_offset' must be 0 when 'gain = "
                  "false' (the offset is added to gamma)"});
  EXPECT_EQ(
      afterCenter("[affine]\ngain = false\ngain_offset = 0\nbias = true\n"),
      Lines{});
}

TEST(SpecErrors, RulesOnABadCenterAreSkipped) {
  // 'center' is unusable, so nothing is said about scale or variance.
  expectErrors("name = \"t\"\n[statistics]\ncenter = 0\nscale = false\n"
               "variance = \"unbiased\"\n",
               {"t.toml:3:10: error: 'center' must be a boolean, got integer"});
  expectErrors("name = \"t\"\n[statistics]\nscale = false\n",
               {"t.toml:2:1: error: missing required key 'center' in "
                "[statistics]"});
}

TEST(SpecErrors, AllErrorsInSourceOrder) {
  SpecParseResult r = parse("name = \"3\"\n"
                            "[statistics]\n"
                            "fractoin = 0.5\n"
                            "center = false\n"
                            "scale = false\n"
                            "[epsilon]\n"
                            "value = -1\n"
                            "[dtypes]\n"
                            "accumulate = \"f16\"\n"
                            "input = \"f8\"\n");
  EXPECT_FALSE(r.spec);
  EXPECT_EQ(messages(r),
            (Lines{"t.toml:1:8: error: 'name' must be a C identifier "
                   "([A-Za-z_][A-Za-z0-9_]*), got \"3\"",
                   "t.toml:3:1: error: unknown key 'fractoin' in [statistics]; "
                   "did you mean 'fraction'?",
                   "t.toml:5:9: error: 'center' and 'scale' cannot both be "
                   "false (nothing would be normalized)",
                   "t.toml:7:9: error: 'value' must be a finite number >= 0, "
                   "got -1",
                   "t.toml:9:14: warning: accumulating in f16 loses precision "
                   "and may overflow; \"f32\" is recommended",
                   "t.toml:10:9: error: 'input' must be one of \"f32\", "
                   "\"f16\", \"bf16\", got \"f8\""}));
}

TEST(SpecErrors, DiagnosticsCarrySeverityAndPosition) {
  SpecParseResult r = parse("name = \"t\"\n[statistics]\ncenter = true\n"
                            "fraction = 3\n");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  const Diagnostic &d = r.diagnostics[0];
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.loc.file, kFile);
  EXPECT_EQ(d.loc.line, 4u);
  EXPECT_EQ(d.loc.column, 12u);
  EXPECT_EQ(d.message, "'fraction' must be in (0, 1], got 3");
}

TEST(SpecErrors, ConstantsTheAccumulateTypeCannotHold) {
  // Epsilon and the gain offset live in the accumulate type: a value that
  // would be Inf or 0 there is refused where it is written.
  EXPECT_EQ(afterCenter("[epsilon]\nvalue = 1e39\n"),
            Lines{"t.toml:5:9: error: 'value' is 1e+39, more than the "
                  "accumulate type f32 holds (its largest value is "
                  "3.40282347e+38)"});
  EXPECT_EQ(afterCenter("[epsilon]\nvalue = 65520.0\n[dtypes]\n"
                        "accumulate = \"f16\"\n"),
            (Lines{"t.toml:5:9: error: 'value' is 65520, more than the "
                   "accumulate type f16 holds (its largest value is 65504)",
                   "t.toml:7:14: warning: accumulating in f16 loses precision "
                   "and may overflow; \"f32\" is recommended"}));
  EXPECT_EQ(afterCenter("[affine]\ngain_offset = 1e-50\n"),
            Lines{"t.toml:5:15: error: 'gain_offset' is 1e-50, which is 0 in "
                  "the accumulate type f32 (its smallest value is "
                  "1.40129846e-45)"});
  // Values that round to the largest or the smallest are fine, and f64
  // holds every value a spec can hold.
  for (const char *fine :
       {"[epsilon]\nvalue = 65519.0\n[dtypes]\naccumulate = \"f16\"\n",
        "[epsilon]\nvalue = 3e-8\n[dtypes]\naccumulate = \"f16\"\n",
        "[epsilon]\nvalue = 1e300\n[dtypes]\naccumulate = \"f64\"\n",
        "[affine]\ngain_offset = 3e38\n"})
    EXPECT_TRUE(
        parse("name = \"t\"\n[statistics]\ncenter = true\n" + std::string(fine))
            .spec)
        << fine;
}

// What a spec wrote is echoed escaped: a key, a table name or a string with
// a newline, a carriage return or an escape sequence cannot start a forged
// line of its own or move the terminal's cursor.
TEST(SpecErrors, WhatAUserWroteIsEchoedEscaped) {
  for (const char *text :
       {"name = \"k\"\n[\"evil\\nfake.toml:1:1: error: forged\"]\n"
        "[statistics]\ncenter = false\n",
        "name = \"k\\u001b[2J\\rfake.toml:1:1: error: forged\"\n"
        "[statistics]\ncenter = false\n",
        "name = \"k\"\n[statistics]\ncenter = false\n\"x\\u0007\\ny\" = 1\n"}) {
    Lines got = messages(parse(text));
    ASSERT_FALSE(got.empty()) << text;
    for (const std::string &line : got) {
      EXPECT_EQ(line.find_first_of("\n\r\x1b\x07"), std::string::npos) << line;
      EXPECT_EQ(line.rfind("t.toml:", 0), 0u) << line;
    }
  }
  Lines table =
      messages(parse("name = \"k\"\n[\"evil\\nfake.toml:1:1: error: forged\"]\n"
                     "[statistics]\ncenter = false\n"));
  EXPECT_NE(table[0].find("evil\\nfake.toml:1:1"), std::string::npos)
      << table[0];
}
