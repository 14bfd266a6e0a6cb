//===- DiagnosticTest.cpp - Diagnostic rendering --------------------------===//
#include "normc/Dsl/Diagnostic.h"

#include <gtest/gtest.h>

using namespace normc::dsl;

TEST(Diagnostic, FullPosition) {
  Diagnostic d{Severity::Error,
               {"specs/bad.toml", 7, 12},
               "'fraction' must be in (0, 1], got 1.5"};
  EXPECT_EQ(
      d.str(),
      "specs/bad.toml:7:12: error: 'fraction' must be in (0, 1], got 1.5");
}

TEST(Diagnostic, SeverityNames) {
  EXPECT_EQ(toString(Severity::Error), "error");
  EXPECT_EQ(toString(Severity::Warning), "warning");
  EXPECT_EQ(toString(Severity::Note), "note");
  EXPECT_EQ((Diagnostic{Severity::Warning, {"a.toml", 1, 2}, "w"}.str()),
            "a.toml:1:2: warning: w");
  EXPECT_EQ((Diagnostic{Severity::Note, {"a.toml", 3, 4}, "n"}.str()),
            "a.toml:3:4: note: n");
}

TEST(Diagnostic, UnknownPartsOfThePositionAreLeftOut) {
  EXPECT_EQ((Diagnostic{Severity::Error, {"a.toml", 3, 0}, "m"}.str()),
            "a.toml:3: error: m");
  EXPECT_EQ((Diagnostic{Severity::Error, {"a.toml", 0, 0}, "m"}.str()),
            "a.toml: error: m");
  EXPECT_EQ((Diagnostic{Severity::Error, {"", 3, 4}, "m"}.str()),
            "3:4: error: m");
  EXPECT_EQ((Diagnostic{Severity::Error, {}, "m"}.str()), "error: m");
}

TEST(Diagnostic, HasErrorsIgnoresWarningsAndNotes) {
  std::vector<Diagnostic> diags;
  EXPECT_FALSE(hasErrors(diags));
  diags.push_back({Severity::Warning, {}, "w"});
  diags.push_back({Severity::Note, {}, "n"});
  EXPECT_FALSE(hasErrors(diags));
  diags.push_back({Severity::Error, {}, "e"});
  EXPECT_TRUE(hasErrors(diags));
}
