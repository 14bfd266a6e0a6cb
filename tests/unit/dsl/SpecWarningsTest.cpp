//===- SpecWarningsTest.cpp - Legal but risky specs -----------------------===//
#include "SpecTestUtil.h"

#include <gtest/gtest.h>

using namespace normc::dsl;
using namespace normc::dsl::test;

namespace {
const char *const kPrefix = "name = \"t\"\n[statistics]\ncenter = false\n"
                            "[dtypes]\n";
} // namespace

TEST(SpecWarnings, F16AccumulationIsWarnedAbout) {
  SpecParseResult r = parse(std::string(kPrefix) + "accumulate = \"f16\"\n");
  ASSERT_TRUE(r.spec) << "a warning does not reject the spec";
  EXPECT_EQ(r.spec->accumulate.value, DType::F16);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].severity, Severity::Warning);
  EXPECT_FALSE(hasErrors(r.diagnostics));
  EXPECT_EQ(messages(r),
            std::vector<std::string>{
                "t.toml:5:14: warning: accumulating in f16 loses precision "
                "and may overflow; \"f32\" is recommended"});
}

TEST(SpecWarnings, BF16AccumulationIsWarnedAbout) {
  SpecParseResult r = parse(std::string(kPrefix) + "accumulate = \"bf16\"\n");
  ASSERT_TRUE(r.spec);
  EXPECT_EQ(messages(r),
            std::vector<std::string>{"t.toml:5:14: warning: accumulating in "
                                     "bf16 loses precision; \"f32\" is "
                                     "recommended"});
}

TEST(SpecWarnings, WideAccumulationIsQuiet) {
  for (const char *type : {"f32", "f64"}) {
    SpecParseResult r = parse(std::string(kPrefix) + "input = \"bf16\"\n" +
                              "accumulate = \"" + type + "\"\n");
    ASSERT_TRUE(r.spec);
    EXPECT_TRUE(r.diagnostics.empty()) << type;
  }
}
