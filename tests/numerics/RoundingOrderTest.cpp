//===- RoundingOrderTest.cpp - affine.normalized rounds where it says -----===//
//
// The error bound of docs/numerics.md admits both rounding orders, so
// these tests compare bits instead: a kernel must agree with the float64
// evaluation of its own rounding order in almost every element, and differ
// from the other order in many (about a quarter of bf16 elements differ by
// one unit in the last place), so that a kernel which rounds in the wrong
// place fails.
//
//===----------------------------------------------------------------------===//
#include "NumericsUtil.h"

#include "normc/Reference/Reference.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace normc;
using namespace normc::test;

namespace {

struct RoundingCase {
  const char *what;
  dsl::NormalizedRounding normalized;
  dsl::DType input, params, output;
  bool center;
};

std::string describe(const RoundingCase &c) {
  return std::string(c.what) + " (normalized = \"" +
         std::string(dsl::toString(c.normalized)) + "\")";
}

void PrintTo(const RoundingCase &c, std::ostream *os) { *os << describe(c); }

/// How many of `got`'s elements have exactly the bits of the evaluation of
/// `spec` rounded to the output type, as a fraction.
double agreement(const dsl::Spec &spec, const CaseData &data,
                 const std::vector<double> &got) {
  reference::Inputs in;
  in.x = data.x.data();
  in.gamma = data.gamma.empty() ? nullptr : data.gamma.data();
  in.beta = data.beta.empty() ? nullptr : data.beta.data();
  in.rows = data.rows;
  in.d = data.d;
  in.xStride = data.xStride;
  reference::Outputs ref = reference::evaluate(spec, in);
  size_t same = 0;
  for (size_t i = 0; i < got.size(); ++i)
    same += got[i] == reference::roundTo(spec.output.value, ref.y[i]);
  return double(same) / double(got.size());
}

class RoundingOrder : public testing::TestWithParam<RoundingCase> {};

TEST_P(RoundingOrder, MatchesItsOwnOrderBitForBit) {
  const RoundingCase &c = GetParam();
  dsl::Spec spec;
  spec.name.value = "rounding_order";
  spec.center.value = c.center;
  spec.bias.value = c.center;
  spec.epsilon.value = 1e-6;
  spec.normalized.value = c.normalized;
  spec.input.value = c.input;
  spec.params.value = c.params;
  spec.output.value = c.output;

  for (int64_t d : {64, 1000, 4096}) {
    CaseData data = makeCase(spec, 8, d, /*seed=*/d);
    RunOptions options;
    options.compile = kernelCompileOptions();
    RunOutputs out;
    Grade grade = runAndGrade(spec, data, options, &out);
    ASSERT_LE(grade.worst(), 1.0) << describe(c) << " d=" << d;

    double ownAgreement = agreement(spec, data, out["y"]);
    EXPECT_GE(ownAgreement, 0.99)
        << describe(c) << " d=" << d
        << ": the kernel does not round where its spec says";

    // The other order: rounding once where the spec rounds twice, or twice
    // (to the narrowest storage type) where it rounds once.
    dsl::Spec other = spec;
    other.normalized.value =
        c.normalized == dsl::NormalizedRounding::Accumulate
            ? (c.input == dsl::DType::F32 ? dsl::NormalizedRounding::Params
                                          : dsl::NormalizedRounding::Input)
            : dsl::NormalizedRounding::Accumulate;
    double otherAgreement = agreement(other, data, out["y"]);
    EXPECT_LE(otherAgreement, 0.9)
        << describe(c) << " d=" << d
        << ": the test cannot tell the rounding orders apart";
    std::printf("%s d=%lld: %.4f bit-identical to its own rounding order, "
                "%.4f to the other\n",
                describe(c).c_str(), static_cast<long long>(d), ownAgreement,
                otherAgreement);
  }
}

INSTANTIATE_TEST_SUITE_P(
    AffineNormalized, RoundingOrder,
    testing::Values(
        RoundingCase{"LlamaRMSNorm", dsl::NormalizedRounding::Input,
                     dsl::DType::BF16, dsl::DType::BF16, dsl::DType::BF16,
                     false},
        RoundingCase{"T5LayerNorm, f32 activations",
                     dsl::NormalizedRounding::Params, dsl::DType::F32,
                     dsl::DType::BF16, dsl::DType::BF16, false},
        RoundingCase{"GemmaRMSNorm", dsl::NormalizedRounding::Accumulate,
                     dsl::DType::BF16, dsl::DType::BF16, dsl::DType::BF16,
                     false},
        RoundingCase{"f16 LayerNorm with bias, f32 params",
                     dsl::NormalizedRounding::Input, dsl::DType::F16,
                     dsl::DType::F32, dsl::DType::F16, true},
        RoundingCase{"f32 input, bf16 params, rounded once",
                     dsl::NormalizedRounding::Accumulate, dsl::DType::F32,
                     dsl::DType::BF16, dsl::DType::BF16, false}));

} // namespace
