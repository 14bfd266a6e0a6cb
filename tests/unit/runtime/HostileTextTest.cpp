//===- HostileTextTest.cpp - Text from files and the environment ----------===//
//
// Numbers, switches and launch facts read from packs, caches and the
// environment are checked strictly, and user text echoed in a message is
// escaped (docs/hostile-input.md).
//
//===----------------------------------------------------------------------===//
#include "normc/Abi/EnvironmentSwitch.h"
#include "normc/Abi/KernelInfo.h"
#include "normc/Abi/Number.h"
#include "normc/Abi/Printable.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace normc;

namespace {

TEST(HostileText, WholeNumbersAreOnlyDigits) {
  EXPECT_EQ(parseWholeNumber("64"), 64);
  EXPECT_EQ(parseWholeNumber("-5"), -5);
  EXPECT_EQ(parseWholeNumber("1099511627776"), int64_t(1) << 40);
  for (const char *bad : {"", "64abc", " 64", "64 ", "+64", "6.4", "0x40",
                          "99999999999999999999", "-"})
    EXPECT_FALSE(parseWholeNumber(bad).has_value()) << bad;
}

TEST(HostileText, SwitchesTakeTheUsualSpellings) {
  for (const char *on : {"1", "true", "TRUE", "on", "On", "yes"})
    EXPECT_EQ(parseSwitch(on), std::optional<bool>(true)) << on;
  for (const char *off : {"0", "false", "off", "OFF", "no", "No"})
    EXPECT_EQ(parseSwitch(off), std::optional<bool>(false)) << off;
  for (const char *bad : {"", "2", "enable", "offf", " on"})
    EXPECT_FALSE(parseSwitch(bad).has_value()) << bad;
  setenv("NORMC_TEST_SWITCH", "off", 1);
  EXPECT_EQ(environmentSwitch("NORMC_TEST_SWITCH"), std::optional<bool>(false));
  setenv("NORMC_TEST_SWITCH", "", 1);
  EXPECT_FALSE(environmentSwitch("NORMC_TEST_SWITCH").has_value());
  setenv("NORMC_TEST_SWITCH", "maybe", 1);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(environmentSwitch("NORMC_TEST_SWITCH").has_value());
  EXPECT_NE(testing::internal::GetCapturedStderr().find(
                "NORMC_TEST_SWITCH='maybe' is not a switch"),
            std::string::npos);
  unsetenv("NORMC_TEST_SWITCH");
}

TEST(HostileText, EchoedTextCannotStartALineOrMoveTheCursor) {
  EXPECT_EQ(printable("gamma"), "gamma");
  EXPECT_EQ(printable("a\nb\rc\td"), "a\\nb\\rc\\td");
  EXPECT_EQ(printable("\x1b[2J\x07\x7f"), "\\x1b[2J\\x07\\x7f");
  EXPECT_EQ(printable("back\\slash"), "back\\slash");
  EXPECT_EQ(printable("\xc3\xa9t\xc3\xa9"), "\xc3\xa9t\xc3\xa9"); // UTF-8 kept
}

TEST(HostileText, LaunchFactsAreReadStrictly) {
  const std::string good = "name=k d=runtime block=256 rows_per_block=1 "
                           "vector_width=4 launch_order=0 shared= "
                           "params=x:rows:f32:r,x_stride:stride::r,"
                           "y:rows:f32:w,rows:rowcount::r,d:d::r";
  ASSERT_TRUE(kernelInfoFromText(good).has_value());
  auto replaced = [&](const std::string &from, const std::string &to) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  for (const std::string &bad :
       {replaced("block=256", "block=256abc"), replaced("d=runtime", "d=64abc"),
        replaced("d=runtime", "d=0"), replaced("d=runtime", "d=1099511627776"),
        replaced("y:rows:f32:w", "y:rows:f32:write"),
        replaced("y:rows:f32:w", "y:rows:f33:w"),
        replaced("y:rows:f32:w", "y:rows::w"),
        replaced("rows:rowcount::r", "rows:rowcount:f32:r"),
        replaced("y:rows:f32:w", "y;rm -rf:rows:f32:w"),
        replaced("name=k", "name=k\nfake"), good + ",", good + ",z:rows"})
    EXPECT_FALSE(kernelInfoFromText(bad).has_value()) << bad;
}

} // namespace
