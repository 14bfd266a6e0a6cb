//===- SpecEnumsTest.cpp - Enum spellings and element sizes ---------------===//
#include "normc/Dsl/Spec.h"

#include <gtest/gtest.h>

using namespace normc::dsl;

TEST(SpecEnums, DTypeSpellingsRoundTrip) {
  const std::pair<DType, std::string_view> all[] = {{DType::F32, "f32"},
                                                    {DType::F64, "f64"},
                                                    {DType::F16, "f16"},
                                                    {DType::BF16, "bf16"}};
  for (auto [type, spelling] : all) {
    EXPECT_EQ(toString(type), spelling);
    EXPECT_EQ(parseDType(spelling), type);
  }
  EXPECT_EQ(parseDType("F32"), std::nullopt);
  EXPECT_EQ(parseDType("fp32"), std::nullopt);
  EXPECT_EQ(parseDType("float"), std::nullopt);
  EXPECT_EQ(parseDType(""), std::nullopt);
}

TEST(SpecEnums, VarianceSpellingsRoundTrip) {
  EXPECT_EQ(toString(Variance::Biased), "biased");
  EXPECT_EQ(toString(Variance::Unbiased), "unbiased");
  EXPECT_EQ(parseVariance("biased"), Variance::Biased);
  EXPECT_EQ(parseVariance("unbiased"), Variance::Unbiased);
  EXPECT_EQ(parseVariance("Biased"), std::nullopt);
}

TEST(SpecEnums, PlacementSpellingsRoundTrip) {
  EXPECT_EQ(toString(EpsilonPlacement::InsideSqrt), "inside_sqrt");
  EXPECT_EQ(toString(EpsilonPlacement::OutsideSqrt), "outside_sqrt");
  EXPECT_EQ(parseEpsilonPlacement("inside_sqrt"), EpsilonPlacement::InsideSqrt);
  EXPECT_EQ(parseEpsilonPlacement("outside_sqrt"),
            EpsilonPlacement::OutsideSqrt);
  EXPECT_EQ(parseEpsilonPlacement("inside"), std::nullopt);
}

TEST(SpecEnums, NormalizedRoundingSpellingsRoundTrip) {
  for (NormalizedRounding r :
       {NormalizedRounding::Accumulate, NormalizedRounding::Input,
        NormalizedRounding::Params})
    EXPECT_EQ(parseNormalizedRounding(toString(r)), r);
  EXPECT_EQ(toString(NormalizedRounding::Input), "input");
  EXPECT_EQ(parseNormalizedRounding("output"), std::nullopt);
}

TEST(SpecEnums, ByteWidth) {
  EXPECT_EQ(byteWidth(DType::F64), 8u);
  EXPECT_EQ(byteWidth(DType::F32), 4u);
  EXPECT_EQ(byteWidth(DType::F16), 2u);
  EXPECT_EQ(byteWidth(DType::BF16), 2u);
}
