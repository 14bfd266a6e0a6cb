//===- NearestKeyTest.cpp - Edit distance and "did you mean" --------------===//
#include "normc/Dsl/NearestKey.h"

#include <gtest/gtest.h>

using namespace normc::dsl;

TEST(EditDistance, CountsEachKindOfEditOnce) {
  EXPECT_EQ(editDistance("", ""), 0u);
  EXPECT_EQ(editDistance("abc", ""), 3u);
  EXPECT_EQ(editDistance("", "abc"), 3u);
  EXPECT_EQ(editDistance("center", "center"), 0u);
  EXPECT_EQ(editDistance("centr", "center"), 1u);      // insertion
  EXPECT_EQ(editDistance("centers", "center"), 1u);    // deletion
  EXPECT_EQ(editDistance("cenfer", "center"), 1u);     // replacement
  EXPECT_EQ(editDistance("fractoin", "fraction"), 1u); // adjacent swap
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
}

TEST(NearestKey, SuggestsTheClosestCandidate) {
  const std::vector<std::string_view> keys = {"center", "scale", "fraction",
                                              "variance"};
  EXPECT_EQ(nearestKey("fractoin", keys), "fraction");
  EXPECT_EQ(nearestKey("centre", keys), "center");
  EXPECT_EQ(nearestKey("scael", keys), "scale");
  EXPECT_EQ(nearestKey("varience", keys), "variance");
}

TEST(NearestKey, IgnoresCase) {
  EXPECT_EQ(nearestKey("CENTER", {"scale", "center"}), "center");
}

TEST(NearestKey, SuggestsACandidateTheWordIsAPrefixOf) {
  EXPECT_EQ(nearestKey("residual", {"residual_add", "save_stats"}),
            "residual_add");
  EXPECT_EQ(nearestKey("accum", {"input", "accumulate"}), "accumulate");
  // Too short to be taken as a prefix.
  EXPECT_EQ(nearestKey("ac", {"accumulate"}), std::nullopt);
}

TEST(NearestKey, NothingWhenNoCandidateIsClose) {
  EXPECT_EQ(nearestKey("eps", {"value", "placement"}), std::nullopt);
  EXPECT_EQ(nearestKey("zzzzzz", {"center", "scale"}), std::nullopt);
  EXPECT_EQ(nearestKey("center", {}), std::nullopt);
}

TEST(NearestKey, TiesGoToTheEarlierCandidate) {
  EXPECT_EQ(nearestKey("f8", {"f16", "f32"}), std::nullopt);
  EXPECT_EQ(nearestKey("f33", {"f32", "f31"}), "f32");
  EXPECT_EQ(nearestKey("f33", {"f31", "f32"}), "f31");
}

TEST(NearestKey, AllowsMoreEditsForLongerWords) {
  // Up to max(1, size / 4) edits: 1 for 2 letters, 2 for 8 letters.
  EXPECT_EQ(nearestKey("ax", {"ab"}), "ab");
  EXPECT_EQ(nearestKey("xy", {"ab"}), std::nullopt);
  EXPECT_EQ(nearestKey("frxxtion", {"fraction"}), "fraction");
  EXPECT_EQ(nearestKey("fxxxtion", {"fraction"}), std::nullopt);
  // Sharing letters is not enough.
  EXPECT_EQ(nearestKey("version", {"epsilon"}), std::nullopt);
}

TEST(ClosestKey, AlwaysNamesTheNearestCandidate) {
  const std::vector<std::string_view> keys = {"value", "placement"};
  EXPECT_EQ(closestKey("eps", keys), "value");
  EXPECT_EQ(closestKey("PLACEMNT", keys), "placement");
  EXPECT_EQ(closestKey("anything", {}), std::nullopt);
}
