//===- GradientTest.cpp - The reference backward against finite differences
//-===//
//
// evaluateGradient is held to central differences of the loss
// L = sum(dy * y) + sum(dh * residual_out), computed with the reference
// forward on a copy of the spec whose dtypes are all f64 (so every rounding
// is the identity, as docs/backward.md differentiates). The data are
// multiples of 2^-10 in [-3, 3]: x + r of two of them is exact in f32, so
// rounding h to the input type is the identity on them too, and the
// gradient of the spec as written is the derivative the differences see.
//
//===----------------------------------------------------------------------===//
#include "ReferenceTestUtil.h"

#include "normc/Reference/Gradient.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace normc::reference;
using namespace normc::reference::test;
namespace dsl = normc::dsl;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// How far a central difference may be from the reference derivative,
/// relative to |derivative| + 1 (the data and gradients are of order 1;
/// the differences themselves are good to about 1e-9 here).
const double kFdTolerance = 1e-6;

/// A forward problem and the gradients arriving at its outputs.
struct Problem {
  Rows rows;
  std::vector<double> dy; // [rows, d]
  std::vector<double> dh; // [rows, d] or empty: the gradient at residual_out
};

/// Multiples of 2^-10 in [-3, 3] from a fixed seed (std::mt19937 is the
/// same everywhere; the standard distributions are not).
class DyadicSource {
public:
  explicit DyadicSource(unsigned seed) : gen(seed) {}
  double next() { return (static_cast<double>(gen() % 6145) - 3072) / 1024; }
  std::vector<double> vector(size_t n) {
    std::vector<double> v(n);
    for (double &e : v)
      e = next();
    return v;
  }

private:
  std::mt19937 gen;
};

Problem makeProblem(const dsl::Spec &spec, int64_t d, int64_t rows, bool withDh,
                    unsigned seed = 1234) {
  DyadicSource src(seed);
  Problem p;
  p.rows.d = d;
  p.rows.x = src.vector(rows * d);
  if (spec.residualAdd.value)
    p.rows.residual = src.vector(rows * d);
  if (spec.gated())
    p.rows.z = src.vector(rows * d);
  if (spec.gain.value)
    p.rows.gamma = src.vector(d);
  if (spec.bias.value)
    p.rows.beta = src.vector(d);
  // alpha in [-3, 3] would saturate tanh and erf: a fraction of it.
  if (!spec.hasStatistics())
    p.rows.alpha = {src.next() / 4};
  if (spec.method.value == dsl::Method::Erf)
    p.rows.shift = {src.next() / 8};
  p.dy = src.vector(rows * d);
  if (withDh)
    p.dh = src.vector(rows * d);
  return p;
}

GradientInputs gradientInputs(const Problem &p) {
  GradientInputs in;
  in.forward.d = p.rows.d;
  in.forward.rows = static_cast<int64_t>(p.rows.x.size()) / p.rows.d;
  in.forward.x = p.rows.x.data();
  in.forward.xStride = p.rows.d;
  in.forward.residual =
      p.rows.residual.empty() ? nullptr : p.rows.residual.data();
  in.forward.residualStride = p.rows.d;
  in.forward.gamma = p.rows.gamma.empty() ? nullptr : p.rows.gamma.data();
  in.forward.beta = p.rows.beta.empty() ? nullptr : p.rows.beta.data();
  in.forward.z = p.rows.z.empty() ? nullptr : p.rows.z.data();
  in.forward.zStride = p.rows.d;
  in.forward.alpha = p.rows.alpha.empty() ? nullptr : p.rows.alpha.data();
  in.forward.shift = p.rows.shift.empty() ? nullptr : p.rows.shift.data();
  in.dy = p.dy.data();
  in.dresidualOut = p.dh.empty() ? nullptr : p.dh.data();
  return in;
}

Gradients gradientOf(const dsl::Spec &spec, const Problem &p) {
  return evaluateGradient(spec, gradientInputs(p));
}

/// The spec with every dtype f64: the reference forward then rounds
/// nothing.
dsl::Spec exactCopy(dsl::Spec spec) {
  spec.input.value = spec.output.value = dsl::DType::F64;
  spec.params.value = spec.accumulate.value = dsl::DType::F64;
  return spec;
}

/// L = sum(dy * y) + sum(dh * residual_out), with the reference forward.
double loss(const dsl::Spec &exact, const Problem &p) {
  Outputs out = evaluateRows(exact, p.rows);
  long double sum = 0;
  for (size_t i = 0; i < out.y.size(); ++i)
    sum += static_cast<long double>(p.dy[i]) * out.y[i];
  for (size_t i = 0; i < p.dh.size(); ++i)
    sum += static_cast<long double>(p.dh[i]) * out.residualOut[i];
  return static_cast<double>(sum);
}

/// dL/d(operand[i]) by a central difference with a step of about 1e-6
/// relative.
double centralDifference(const dsl::Spec &exact, Problem p,
                         std::vector<double> Rows::*operand, size_t i) {
  double &v = (p.rows.*operand)[i];
  const double v0 = v;
  const double step = 1e-6 * std::max(1.0, std::fabs(v0));
  const double up = v0 + step, down = v0 - step;
  v = up;
  double lossUp = loss(exact, p);
  v = down;
  double lossDown = loss(exact, p);
  return (lossUp - lossDown) / (up - down);
}

/// Every element of an operand against its central difference.
void expectMatchesDifferences(const dsl::Spec &exact, const Problem &p,
                              std::vector<double> Rows::*operand,
                              const std::vector<double> &gradient,
                              const char *what) {
  ASSERT_EQ(gradient.size(), (p.rows.*operand).size()) << what;
  for (size_t i = 0; i < gradient.size(); ++i) {
    double fd = centralDifference(exact, p, operand, i);
    EXPECT_NEAR(gradient[i], fd, kFdTolerance * (std::fabs(gradient[i]) + 1))
        << what << "[" << i << "]";
  }
}

/// One spec of the sweep: every option of docs/spec.md that the
/// backward differentiates appears in at least one.
struct Case {
  const char *name;
  const char *toml;
  int64_t d;
  bool withDh; // a gradient arrives at residual_out
};

const Case kCases[] = {
    {"RmsNorm", "[statistics]\ncenter = false\n", 8, false},
    {"LayerNormWithBias",
     "[statistics]\ncenter = true\n[affine]\nbias = true\n", 7, false},
    {"LayerNormWithoutAffine",
     "[statistics]\ncenter = true\n[affine]\ngain = false\n", 6, false},
    {"RmsNormWithoutGain",
     "[statistics]\ncenter = false\n[affine]\ngain = false\n", 5, false},
    {"MeanOnly",
     "[statistics]\ncenter = true\nscale = false\n[affine]\nbias = true\n", 5,
     false},
    {"MeanOnlyFractionHalf",
     "[statistics]\ncenter = true\nscale = false\nfraction = 0.5\n", 11, false},
    {"RmsNormFractionHalf", "[statistics]\ncenter = false\nfraction = 0.5\n", 9,
     false},
    {"LayerNormFractionHalfUnbiased",
     "[statistics]\ncenter = true\nfraction = 0.5\nvariance = \"unbiased\"\n"
     "[affine]\nbias = true\n",
     9, false},
    {"LayerNormUnbiased",
     "[statistics]\ncenter = true\nvariance = \"unbiased\"\n", 5, false},
    {"RmsNormOutsideSqrt",
     "[statistics]\ncenter = false\n[epsilon]\nvalue = 0.1\n"
     "placement = \"outside_sqrt\"\n",
     10, false},
    {"LayerNormOutsideSqrtFraction",
     "[statistics]\ncenter = true\nfraction = 0.7\n[epsilon]\n"
     "placement = \"outside_sqrt\"\n",
     10, false},
    {"LargeEpsilonInsideSqrt",
     "[statistics]\ncenter = true\n[epsilon]\nvalue = 0.5\n", 6, false},
    {"GainOffsetOne",
     "[statistics]\ncenter = false\n[affine]\ngain_offset = 1.0\n", 12, false},
    {"GainOffsetHalf",
     "[statistics]\ncenter = true\n[affine]\ngain_offset = 0.5\nbias = true\n",
     13, false},
    {"ResidualAdd",
     "[statistics]\ncenter = false\n[fusion]\nresidual_add = true\n", 8, false},
    {"ResidualAddWithDresidualOut",
     "[statistics]\ncenter = false\n[fusion]\nresidual_add = true\n", 8, true},
    {"LayerNormResidualFractionWithDresidualOut",
     "[statistics]\ncenter = true\nfraction = 0.5\n[affine]\nbias = true\n"
     "[fusion]\nresidual_add = true\n",
     9, true},
    {"EveryOption",
     "[statistics]\ncenter = true\nfraction = 0.75\nvariance = \"unbiased\"\n"
     "[epsilon]\nvalue = 0.01\nplacement = \"outside_sqrt\"\n"
     "[affine]\ngain_offset = 1.0\nbias = true\n"
     "[fusion]\nresidual_add = true\nsave_stats = true\n",
     13, true},
    {"GateBefore",
     "[statistics]\ncenter = false\n[fusion]\ngate = \"before\"\n", 8, false},
    {"GateAfterLayerNormWithBias",
     "[statistics]\ncenter = true\n[affine]\nbias = true\n"
     "[fusion]\ngate = \"after\"\n",
     7, false},
    {"GateAfterRoundedSigmoidResidual",
     "[statistics]\ncenter = false\n[affine]\ngain_offset = 1.0\n"
     "[fusion]\nresidual_add = true\ngate = \"after_rounded\"\n"
     "gate_activation = \"sigmoid\"\n",
     9, true},
    {"DynamicTanh", "[statistics]\nmethod = \"tanh\"\n[affine]\nbias = true\n",
     8, false},
    {"DerfGainOffsetResidual",
     "[statistics]\nmethod = \"erf\"\n[affine]\ngain_offset = 1.0\n"
     "bias = true\n[fusion]\nresidual_add = true\n",
     7, true},
    {"DynamicTanhGateBefore",
     "[statistics]\nmethod = \"tanh\"\n[fusion]\ngate = \"before\"\n", 6,
     false},
    {"DerfGateAfterSigmoid",
     "[statistics]\nmethod = \"erf\"\n[affine]\nbias = true\n"
     "[fusion]\ngate = \"after\"\ngate_activation = \"sigmoid\"\n",
     6, false},
    {"GateBeforeResidualFraction",
     "[statistics]\ncenter = true\nfraction = 0.5\n[affine]\nbias = true\n"
     "[fusion]\nresidual_add = true\ngate = \"before\"\n",
     9, true},
};

/// gtest names a failing case by this rather than by its bytes.
void PrintTo(const Case &c, std::ostream *os) { *os << c.name; }

/// The case of kCases with that name (the sweep's specs serve other tests).
const Case &caseNamed(const std::string &name) {
  for (const Case &c : kCases)
    if (name == c.name)
      return c;
  ADD_FAILURE() << "no case " << name;
  return kCases[0];
}

class GradientFiniteDifference : public ::testing::TestWithParam<Case> {};

} // namespace

TEST_P(GradientFiniteDifference, MatchesCentralDifferences) {
  const Case &c = GetParam();
  dsl::Spec spec = makeSpec(c.toml);
  dsl::Spec exact = exactCopy(spec);
  Problem p = makeProblem(spec, c.d, 3, c.withDh);
  Gradients grad = gradientOf(spec, p);
  // On these data rounding h to f32 is the identity (see the top).
  EXPECT_EQ(grad.dx, gradientOf(exact, p).dx);

  expectMatchesDifferences(exact, p, &Rows::x, grad.dx, "dx");
  if (spec.residualAdd.value)
    expectMatchesDifferences(exact, p, &Rows::residual, grad.dx, "dresidual");
  if (spec.gain.value)
    expectMatchesDifferences(exact, p, &Rows::gamma, grad.dgamma, "dgamma");
  else
    EXPECT_TRUE(grad.dgamma.empty());
  if (spec.bias.value)
    expectMatchesDifferences(exact, p, &Rows::beta, grad.dbeta, "dbeta");
  else
    EXPECT_TRUE(grad.dbeta.empty());
  if (spec.gated())
    expectMatchesDifferences(exact, p, &Rows::z, grad.dz, "dz");
  else
    EXPECT_TRUE(grad.dz.empty());
  if (!spec.hasStatistics())
    expectMatchesDifferences(exact, p, &Rows::alpha, grad.dalpha, "dalpha");
  else
    EXPECT_TRUE(grad.dalpha.empty());
  if (spec.method.value == dsl::Method::Erf)
    expectMatchesDifferences(exact, p, &Rows::shift, grad.dshift, "dshift");
  else
    EXPECT_TRUE(grad.dshift.empty());
}

TEST_P(GradientFiniteDifference, ScalesBoundTheValues) {
  // M is a sum of the absolute values of terms whose signed sum is the
  // value, so it is never below |value|.
  const Case &c = GetParam();
  dsl::Spec spec = makeSpec(c.toml);
  Problem p = makeProblem(spec, c.d, 3, c.withDh, 99);
  Gradients grad = gradientOf(spec, p);
  ASSERT_EQ(grad.dx.size(), p.rows.x.size());
  ASSERT_EQ(grad.dxScale.size(), grad.dx.size());
  ASSERT_EQ(grad.dgammaScale.size(), grad.dgamma.size());
  ASSERT_EQ(grad.dbetaScale.size(), grad.dbeta.size());
  EXPECT_EQ(grad.dgamma.size(), spec.gain.value ? size_t(c.d) : 0u);
  EXPECT_EQ(grad.dbeta.size(), spec.bias.value ? size_t(c.d) : 0u);
  for (size_t i = 0; i < grad.dx.size(); ++i)
    EXPECT_GE(grad.dxScale[i], std::fabs(grad.dx[i])) << "dx[" << i << "]";
  for (size_t i = 0; i < grad.dgamma.size(); ++i)
    EXPECT_GE(grad.dgammaScale[i], std::fabs(grad.dgamma[i]))
        << "dgamma[" << i << "]";
  for (size_t i = 0; i < grad.dbeta.size(); ++i)
    EXPECT_GE(grad.dbetaScale[i], std::fabs(grad.dbeta[i]))
        << "dbeta[" << i << "]";
  ASSERT_EQ(grad.dz.size(), spec.gated() ? grad.dx.size() : 0u);
  ASSERT_EQ(grad.dzScale.size(), grad.dz.size());
  for (size_t i = 0; i < grad.dz.size(); ++i)
    EXPECT_GE(grad.dzScale[i], std::fabs(grad.dz[i])) << "dz[" << i << "]";
  ASSERT_EQ(grad.dalpha.size(), spec.hasStatistics() ? 0u : 1u);
  ASSERT_EQ(grad.dalphaScale.size(), grad.dalpha.size());
  for (size_t i = 0; i < grad.dalpha.size(); ++i)
    EXPECT_GE(grad.dalphaScale[i], std::fabs(grad.dalpha[i]));
  ASSERT_EQ(grad.dshiftScale.size(), grad.dshift.size());
  for (size_t i = 0; i < grad.dshift.size(); ++i)
    EXPECT_GE(grad.dshiftScale[i], std::fabs(grad.dshift[i]));
}

INSTANTIATE_TEST_SUITE_P(GradientSpecOptions, GradientFiniteDifference,
                         ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case> &info) {
                           return std::string(info.param.name);
                         });

TEST(GradientReference, HandComputedRmsNorm) {
  // [1, 7], eps 0, no gain, dy = [1, 0]: s = 25, r = 1/5, dr/ds = -r^3/2 =
  // -1/250, dr = sum g h = 1, ds = -1/250, D = 2.
  // dx = g r + ds * 2 h / D = [1/5 - 1/250, -7/250] = [49/250, -7/250]
  // (d/dh0 of sqrt(2) h0 / |h| is sqrt(2) h1^2 / |h|^3 = 49/250 too).
  // M = |g r| + |dr/ds| * 2/D * |h| * sum|g h| = [51/250, 7/250].
  dsl::Spec spec = makeSpec(kRmsNorm);
  Problem p{{{1, 7}, {}, {}, {}, 2}, {1, 0}, {}};
  Gradients grad = gradientOf(spec, p);
  expectValues(grad.dx, {49.0 / 250, -7.0 / 250});
  expectValues(grad.dxScale, {51.0 / 250, 7.0 / 250});
  EXPECT_TRUE(grad.dgamma.empty());
  EXPECT_TRUE(grad.dbeta.empty());
}

TEST(GradientReference, ConstantDyIsInvisibleToLayerNorm) {
  // sum(y) of a LayerNorm row is 0 whatever h is, so dy = 1 everywhere
  // gives dx = 0. [0, 0, 4, 4]: mu = 2, s = 4, r = 1/2; g r = 1/2 and
  // dmu / k = -r * 4 / 4 = -1/2 cancel, dr = sum dev = 0. M = 1/2 + r/k *
  // sum|g| (1/2) + r^3/2 * 2/4 * |dev| * sum|dev| (1/16 * 1/2 * 2 * 8 =
  // 1/2) = 3/2. dgamma = sum dy n = n = [-1, -1, 1, 1], dbeta = dy.
  dsl::Spec spec =
      makeSpec("[statistics]\ncenter = true\n[epsilon]\nvalue = 0\n[affine]\n"
               "bias = true\n");
  Problem p{
      {{0, 0, 4, 4}, {}, {1, 1, 1, 1}, {0, 0, 0, 0}, 4}, {1, 1, 1, 1}, {}};
  Gradients grad = gradientOf(spec, p);
  expectValues(grad.dx, {0, 0, 0, 0});
  expectValues(grad.dxScale, {1.5, 1.5, 1.5, 1.5});
  expectValues(grad.dgamma, {-1, -1, 1, 1});
  expectValues(grad.dgammaScale, {1, 1, 1, 1});
  expectValues(grad.dbeta, {1, 1, 1, 1});
  expectValues(grad.dbetaScale, {1, 1, 1, 1});
}

TEST(GradientReference, ParameterGradientsSumOverRows) {
  // Two rows give the sum of what each gives alone.
  dsl::Spec spec = makeSpec(caseNamed("LayerNormWithBias").toml);
  Problem both = makeProblem(spec, 6, 2, false);
  Problem first = both, second = both;
  first.rows.x.resize(6);
  first.dy.resize(6);
  second.rows.x.erase(second.rows.x.begin(), second.rows.x.begin() + 6);
  second.dy.erase(second.dy.begin(), second.dy.begin() + 6);
  Gradients g2 = gradientOf(spec, both), ga = gradientOf(spec, first),
            gb = gradientOf(spec, second);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_NEAR(g2.dgamma[i], ga.dgamma[i] + gb.dgamma[i], 1e-15);
    EXPECT_NEAR(g2.dbeta[i], ga.dbeta[i] + gb.dbeta[i], 1e-15);
    EXPECT_EQ(g2.dgammaScale[i], ga.dgammaScale[i] + gb.dgammaScale[i]);
    EXPECT_EQ(g2.dx[i], ga.dx[i]);
    EXPECT_EQ(g2.dx[6 + i], gb.dx[i]);
  }
}

TEST(GradientReference, ReadsTheRoundedResidualSum) {
  // f16 input: 1 + 2^-12 rounds to 1 (the f16 ulp at 1 is 2^-10), and so
  // on. The gradient is taken at the stored, rounded h, exactly as if that
  // h had been given as x with no residual.
  dsl::Spec spec =
      makeSpec("[statistics]\ncenter = true\n[affine]\ngain = false\n"
               "[dtypes]\ninput = \"f16\"\n[fusion]\nresidual_add = true\n");
  double u = std::ldexp(1.0, -12);
  Problem p{
      {{1, -2, 3, 0.5}, {u, u, -u, u / 2}, {}, {}, 4}, {0.5, -1, 2, 1}, {}};
  Problem rounded = p;
  for (size_t i = 0; i < 4; ++i) {
    rounded.rows.x[i] =
        roundTo(dsl::DType::F16, p.rows.x[i] + p.rows.residual[i]);
    rounded.rows.residual[i] = 0;
  }
  EXPECT_EQ(rounded.rows.x, (std::vector<double>{1, -2, 3, 0.5}));
  Gradients grad = gradientOf(spec, p);
  EXPECT_EQ(grad.dx, gradientOf(spec, rounded).dx);
  EXPECT_NE(grad.dx, gradientOf(exactCopy(spec), p).dx);
}

TEST(GradientReference, RowStrides) {
  // Rows of d = 3 inside rows of 4 (x), 5 (residual) and 6 (dy) elements;
  // the padding is NaN and must never be read.
  dsl::Spec spec = makeSpec(caseNamed("EveryOption").toml);
  Problem dense = makeProblem(spec, 3, 2, true);
  std::vector<double> x(8, kNaN), r(10, kNaN), dy(12, kNaN);
  for (int row = 0; row < 2; ++row)
    for (int i = 0; i < 3; ++i) {
      x[row * 4 + i] = dense.rows.x[row * 3 + i];
      r[row * 5 + i] = dense.rows.residual[row * 3 + i];
      dy[row * 6 + i] = dense.dy[row * 3 + i];
    }
  GradientInputs in = gradientInputs(dense);
  in.forward.x = x.data();
  in.forward.xStride = 4;
  in.forward.residual = r.data();
  in.forward.residualStride = 5;
  in.dy = dy.data();
  in.dyStride = 6;
  Gradients strided = evaluateGradient(spec, in);
  Gradients expected = gradientOf(spec, dense);
  EXPECT_EQ(strided.dx, expected.dx);
  EXPECT_EQ(strided.dxScale, expected.dxScale);
  EXPECT_EQ(strided.dgamma, expected.dgamma);
  EXPECT_EQ(strided.dbeta, expected.dbeta);
  for (double v : strided.dx)
    EXPECT_TRUE(std::isfinite(v));
}

TEST(GradientReference, ZeroRows) {
  GradientInputs in; // no pointers at all
  in.forward.d = 5;
  Gradients grad =
      evaluateGradient(makeSpec(caseNamed("EveryOption").toml), in);
  EXPECT_TRUE(grad.dx.empty());
  EXPECT_TRUE(grad.dxScale.empty());
  EXPECT_EQ(grad.dgamma, std::vector<double>(5, 0.0));
  EXPECT_EQ(grad.dgammaScale, std::vector<double>(5, 0.0));
  EXPECT_EQ(grad.dbeta, std::vector<double>(5, 0.0));
  EXPECT_EQ(grad.dbetaScale, std::vector<double>(5, 0.0));
}

TEST(GradientReference, NonFiniteValuesStayInTheirRow) {
  dsl::Spec spec = makeSpec(kRmsNorm);
  Problem p{{{1, kNaN, 1, 7}, {}, {}, {}, 2}, {1, 1, 1, 0}, {}};
  Gradients grad = gradientOf(spec, p);
  EXPECT_TRUE(std::isnan(grad.dx[0]));
  EXPECT_TRUE(std::isnan(grad.dx[1]));
  expectValues({grad.dx[2], grad.dx[3]}, {49.0 / 250, -7.0 / 250});
}

TEST(GradientReference, MissingOrInconsistentInputsThrow) {
  dsl::Spec spec =
      makeSpec(caseNamed("EveryOption").toml); // residual, gamma, beta
  Problem p = makeProblem(spec, 4, 2, true);
  GradientInputs in = gradientInputs(p);
  EXPECT_NO_THROW(evaluateGradient(spec, in));
  GradientInputs bad = in;
  bad.dy = nullptr;
  EXPECT_THROW(evaluateGradient(spec, bad), std::invalid_argument);
  bad = in;
  bad.dyStride = 3;
  EXPECT_THROW(evaluateGradient(spec, bad), std::invalid_argument);
  bad = in;
  bad.forward.gamma = nullptr;
  EXPECT_THROW(evaluateGradient(spec, bad), std::invalid_argument);
  bad = in;
  bad.forward.residualStride = 1;
  EXPECT_THROW(evaluateGradient(spec, bad), std::invalid_argument);
  bad = in;
  bad.forward.rows = -1;
  EXPECT_THROW(evaluateGradient(spec, bad), std::invalid_argument);
  // A gradient at residual_out needs a residual_out.
  dsl::Spec rms = makeSpec(kRmsNorm);
  Problem q = makeProblem(rms, 4, 2, true);
  EXPECT_THROW(gradientOf(rms, q), std::invalid_argument);
  q.dh.clear();
  EXPECT_NO_THROW(gradientOf(rms, q));
}

TEST(GradientMutation, DroppingTheStatisticsTermsIsDetected) {
  // A backward that forgets that mu and r depend on h (dx = g r alone, the
  // classic bug) is far outside the tolerance, both of the central
  // differences and of the f32 promise, while the reference is inside.
  dsl::Spec spec = makeSpec(caseNamed("LayerNormWithBias").toml);
  dsl::Spec exact = exactCopy(spec);
  Problem p = makeProblem(spec, 8, 3, false, 7);
  Gradients grad = gradientOf(spec, p);
  dsl::Spec saving = spec;
  saving.saveStats.value = true;
  Outputs fwd = evaluateRows(saving, p.rows);
  double worstFd = 0, worstPromise = 0, worstReference = 0;
  for (size_t i = 0; i < p.rows.x.size(); ++i) {
    size_t row = i / 8, feature = i % 8;
    double plain = p.dy[i] * p.rows.gamma[feature] * fwd.rstd[row];
    double fd = centralDifference(exact, p, &Rows::x, i);
    worstFd = std::max(worstFd, std::fabs(plain - fd) / (std::fabs(fd) + 1));
    worstPromise = std::max(
        worstPromise,
        dxErrorFraction(plain, grad.dx[i], grad.dxScale[i], dsl::DType::F32));
    worstReference = std::max(worstReference,
                              std::fabs(grad.dx[i] - fd) / (std::fabs(fd) + 1));
  }
  EXPECT_LE(worstReference, kFdTolerance);
  EXPECT_GT(worstFd, 1e4 * kFdTolerance);
  EXPECT_GT(worstPromise, 100);
}

TEST(GradientMutation, DroppingTheGradientAtResidualOutIsDetected) {
  dsl::Spec spec = makeSpec(caseNamed("ResidualAddWithDresidualOut").toml);
  ASSERT_TRUE(spec.residualAdd.value);
  dsl::Spec exact = exactCopy(spec);
  Problem p = makeProblem(spec, 8, 2, true, 11);
  Problem withoutDh = p;
  withoutDh.dh.clear();
  Gradients forgot = gradientOf(spec, withoutDh);
  double worst = 0;
  for (size_t i = 0; i < p.rows.x.size(); ++i) {
    double fd = centralDifference(exact, p, &Rows::x, i);
    worst = std::max(worst, std::fabs(forgot.dx[i] - fd) / (std::fabs(fd) + 1));
  }
  EXPECT_GT(worst, 1e4 * kFdTolerance);
}

TEST(GradientErrorFraction, DxBound) {
  // f32, ref 1, M 3: bound 2 * 2^-17 * (1 + 3) = 2^-14.
  EXPECT_EQ(dxErrorFraction(1, 1, 3, dsl::DType::F32), 0);
  EXPECT_EQ(dxErrorFraction(1 + std::ldexp(1.0, -14), 1, 3, dsl::DType::F32),
            1);
  EXPECT_EQ(dxErrorFraction(1 - std::ldexp(1.0, -13), 1, 3, dsl::DType::F32),
            2);
  // bf16, ref 0, M 2: bound 2 * 2^-7 * 2 = 2^-5; the sign of ref is
  // irrelevant.
  EXPECT_EQ(dxErrorFraction(std::ldexp(1.0, -6), 0, 2, dsl::DType::BF16), 0.5);
  EXPECT_EQ(dxErrorFraction(-4 - std::ldexp(1.0, -7), -4, 4, dsl::DType::F16),
            0.5); // bound 2 * 2^-10 * 8 = 2^-6
}

TEST(GradientErrorFraction, ParamGradBound) {
  // f32, ref 1, M 4: bound 2 * 2^-17 * 1 + 2^-16 * 4 = 5 * 2^-16.
  EXPECT_EQ(paramGradErrorFraction(1, 1, 4, dsl::DType::F32), 0);
  EXPECT_EQ(paramGradErrorFraction(1 + 5 * std::ldexp(1.0, -16), 1, 4,
                                   dsl::DType::F32),
            1);
  // ref 0, M 1: bound 2^-16 and half the type's smallest subnormal.
  for (dsl::DType t : {dsl::DType::BF16, dsl::DType::F16, dsl::DType::F32})
    EXPECT_EQ(paramGradErrorFraction(-std::ldexp(1.0, -17), 0, 1, t),
              std::ldexp(1.0, -17) / (std::ldexp(1.0, -16) +
                                      normc::dsl::smallestSubnormal(t) / 2));
  // bf16, ref 2, M 0: bound 2 * 2^-7 * 2 = 2^-5.
  EXPECT_EQ(
      paramGradErrorFraction(2 + std::ldexp(1.0, -5), 2, 0, dsl::DType::BF16),
      1);
}

TEST(GradientErrorFraction, ZeroBoundAdmitsOnlyTheValue) {
  for (dsl::DType t : {dsl::DType::BF16, dsl::DType::F16, dsl::DType::F32}) {
    EXPECT_EQ(dxErrorFraction(0, 0, 0, t), 0);
    EXPECT_EQ(dxErrorFraction(1e-300, 0, 0, t), INFINITY);
    // A parameter gradient is rounded once into its type: half the
    // smallest subnormal is the least any bound admits.
    EXPECT_EQ(paramGradErrorFraction(0, 0, 0, t), 0);
    EXPECT_EQ(paramGradErrorFraction(normc::dsl::smallestSubnormal(t), 0, 0, t),
              2);
  }
}

TEST(GradientErrorFraction, NaNAndInfinity) {
  for (dsl::DType t : {dsl::DType::BF16, dsl::DType::F16, dsl::DType::F32}) {
    using Fraction = double (*)(double, double, double, dsl::DType);
    Fraction param = [](double v, double ref, double scale, dsl::DType type) {
      return paramGradErrorFraction(v, ref, scale, type);
    };
    for (Fraction fraction : {Fraction(&dxErrorFraction), param}) {
      EXPECT_EQ(fraction(kNaN, kNaN, 1, t), 0);
      EXPECT_EQ(fraction(1, kNaN, 1, t), INFINITY);
      EXPECT_EQ(fraction(INFINITY, kNaN, 1, t), INFINITY);
      EXPECT_EQ(fraction(INFINITY, INFINITY, 1, t), 0);
      EXPECT_EQ(fraction(-INFINITY, -INFINITY, 1, t), 0);
      EXPECT_EQ(fraction(-INFINITY, INFINITY, 1, t), INFINITY);
      EXPECT_EQ(fraction(kNaN, INFINITY, 1, t), INFINITY);
      EXPECT_EQ(fraction(1e300, INFINITY, 1, t), INFINITY);
      // A finite ref needs a finite value, whatever the scale.
      EXPECT_EQ(fraction(kNaN, 1, 1e300, t), INFINITY);
      EXPECT_EQ(fraction(INFINITY, 1e30, 1e300, t), INFINITY);
    }
  }
}
