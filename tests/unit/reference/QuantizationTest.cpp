//===- QuantizationTest.cpp - The fp8 amax and scales per row and block ---===//
//
// reference::quantization on hand-made y: the amax per row or per block of
// features (the last block shorter, NaN ignored, zeros giving scale 1), and
// countFp8 dividing each value by its own block's scale.
//
//===----------------------------------------------------------------------===//
#include "normc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

using namespace normc;
using namespace normc::reference;

namespace {

dsl::Spec fp8Spec(dsl::QuantizeScale mode, double block = 128) {
  dsl::Spec spec;
  spec.output.value = dsl::DType::F8E4M3;
  spec.quantizeScale.value = mode;
  spec.quantizeBlock.value = block;
  return spec;
}

/// Two rows of d = 40: row 0 grows with the feature, row 1 has a NaN, a
/// block of zeros and negative values.
Outputs twoRows() {
  Outputs out;
  for (int i = 0; i < 40; ++i)
    out.y.push_back(i + 1.0);
  for (int i = 0; i < 40; ++i)
    out.y.push_back(i < 16 ? 0.0 : i == 20 ? NAN : -(i + 0.5));
  out.yConditioning.assign(out.y.size(), 0.0);
  return out;
}

TEST(Quantization, PerRow) {
  Quantization q =
      quantization(fp8Spec(dsl::QuantizeScale::Row), twoRows(), 2, 40);
  EXPECT_EQ(q.group, 40);
  ASSERT_EQ(q.amax, (std::vector<double>{40.0, 39.5}));
  EXPECT_EQ(q.scale, (std::vector<double>{40.0 / 448, 39.5 / 448}));
}

TEST(Quantization, PerBlockWithARaggedLastBlock) {
  // Blocks of 16: [0, 16), [16, 32), [32, 40).
  Quantization q =
      quantization(fp8Spec(dsl::QuantizeScale::Block, 16), twoRows(), 2, 40);
  EXPECT_EQ(q.group, 16);
  ASSERT_EQ(q.amax, (std::vector<double>{16, 32, 40, 0, 31.5, 39.5}));
  EXPECT_EQ(q.scale, (std::vector<double>{16.0 / 448, 32.0 / 448, 40.0 / 448,
                                          1.0, 31.5 / 448, 39.5 / 448}));
}

TEST(Quantization, StaticScaleKeepsTheRowAmax) {
  Quantization q =
      quantization(fp8Spec(dsl::QuantizeScale::Static), twoRows(), 2, 40, 0.25);
  EXPECT_EQ(q.amax, (std::vector<double>{40.0, 39.5}));
  EXPECT_EQ(q.scale, (std::vector<double>{0.25, 0.25}));
}

TEST(Quantization, CountDividesEachValueByItsBlocksScale) {
  Outputs ref = twoRows();
  Quantization want =
      quantization(fp8Spec(dsl::QuantizeScale::Block, 16), ref, 2, 40);
  std::vector<double> q;
  for (size_t i = 0; i < ref.y.size(); ++i)
    q.push_back(roundTo(dsl::DType::F8E4M3,
                        ref.y[i] / want.scale[(i / 40) * 3 + i % 40 / 16]));
  Fp8Count count =
      countFp8(dsl::DType::F8E4M3, q, ref, 40, want.scale, 1, want.group);
  EXPECT_EQ(count.values, 80u);
  EXPECT_EQ(count.exact, 80u);
  EXPECT_EQ(count.accepted, 80u);
  // The same values against the first block's scale for the whole row are
  // mostly wrong: the grouping is what the count checks.
  std::vector<double> rowScales = {want.scale[0], want.scale[3]};
  Fp8Count perRow = countFp8(dsl::DType::F8E4M3, q, ref, 40, rowScales);
  EXPECT_LT(perRow.accepted, 60u);
  EXPECT_THROW(countFp8(dsl::DType::F8E4M3, q, ref, 40, want.scale, 1, 8),
               std::invalid_argument);
}

} // namespace
