//===- ForwardMutationTest.cpp - Broken forward IR fails the suite --------===//
//
// The likely mistakes of a hand-written forward, made on purpose in the
// spec's norm-level IR: the centering dropped from the output, the biased
// divisor k where the spec says k - 1, the gain offset dropped, epsilon on
// the wrong side of the root, and the statistics read from the residual sum
// before it is rounded to the input type. The mutated IR is lowered,
// emitted and run like any other and graded against the spec as written;
// the same IR unmutated passes.
//
//===----------------------------------------------------------------------===//
#include "MutatedIR.h"
#include "NumericsUtil.h"

#include "normc/Dialect/Norm/IR/NormOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace mlir;
using namespace normc;
using namespace normc::test;

namespace {

Grade runMutated(const dsl::Spec &spec, const CaseData &data,
                 const Mutation &mutate) {
  MutatedKernels k = compileMutated(spec, Program::forward(), data.d, mutate);
  RunOutputs out =
      runModuleOnCpu(spec, k.emitted.kernels, k.module, inputsOf(data));
  return grade(spec, data, out);
}

/// The statistics read h = x + residual in f32, before it is rounded to the
/// residual's type (residual_out still stores the rounded sum).
void unroundedResidualSum(ModuleOp module) {
  module.walk([](norm::ResidualAddOp add) {
    OpBuilder b(add);
    auto rows = cast<RankedTensorType>(add.getType());
    auto wide = RankedTensorType::get(rows.getShape(), b.getF32Type());
    auto sum = norm::MapOp::create(b, add.getLoc(), wide,
                                   ValueRange{add.getX(), add.getResidual()},
                                   ValueRange{}, FloatAttr());
    Block &body = sum.getBody().emplaceBlock();
    for (Value operand : {add.getX(), add.getResidual()})
      body.addArgument(
          cast<RankedTensorType>(operand.getType()).getElementType(),
          add.getLoc());
    b.setInsertionPointToStart(&body);
    auto widen = [&](Value v) -> Value {
      return arith::ExtFOp::create(b, add.getLoc(), b.getF32Type(), v);
    };
    norm::YieldOp::create(b, add.getLoc(),
                          arith::AddFOp::create(b, add.getLoc(),
                                                widen(body.getArgument(0)),
                                                widen(body.getArgument(1)))
                              .getResult());
    add.getResult().replaceUsesWithIf(sum.getResult(), [](OpOperand &use) {
      return !isa<norm::OutputOp>(use.getOwner());
    });
  });
}

struct Case {
  const char *what;
  dsl::Spec spec;
  Mutation mutate;
};

std::vector<Case> cases() {
  auto shipped = [](const char *name) { return loadShippedSpec(name); };
  dsl::Spec unbiased = shipped("layernorm");
  unbiased.variance.value = dsl::Variance::Unbiased;
  dsl::Spec bigEpsilon = shipped("llama_rmsnorm");
  bigEpsilon.epsilon.value = 0.5; // large, so that its placement matters
  dsl::Spec fusedF32Out = shipped("fused_add_rmsnorm");
  // An f32 output resolves the bf16 rounding of h that the mutation skips.
  fusedF32Out.output.value = dsl::DType::F32;
  return {
      {"the centering dropped from y", shipped("layernorm"),
       [](ModuleOp m) {
         m.walk([](norm::NormalizeOp n) { n.getMeanMutable().clear(); });
       }},
      {"the divisor k instead of k - 1", unbiased,
       [](ModuleOp m) {
         m.walk(
             [](norm::MomentOp op) { op.setVariance(norm::Variance::biased); });
       }},
      {"the gain offset dropped", shipped("gemma_rmsnorm"),
       [](ModuleOp m) {
         m.walk([](norm::NormalizeOp n) {
           n.setGainOffsetAttr(
               FloatAttr::get(Float64Type::get(n.getContext()), 0.0));
         });
       }},
      {"epsilon outside the root", bigEpsilon,
       [](ModuleOp m) {
         m.walk([](norm::RstdOp r) {
           r.setPlacement(norm::EpsilonPlacement::outside_sqrt);
         });
       }},
      {"the residual sum not rounded", fusedF32Out, unroundedResidualSum},
  };
}

TEST(ForwardMutation, EachLikelyMistakeFailsAndTheTruthPasses) {
  for (const Case &c : cases()) {
    CaseData data = makeCase(c.spec, 9, 64, 53, /*scale=*/0.5);
    Grade truth = runMutated(c.spec, data, nullptr);
    EXPECT_LE(truth.worst(), 1.0) << c.what << ": " << truth.str();
    Grade broken = runMutated(c.spec, data, c.mutate);
    EXPECT_GT(broken.y, 1.0) << c.what << " passed: " << broken.str();
    std::printf("  %-18s %-32s truth %.3g, mutated %.3g of the bound\n",
                c.spec.name.value.c_str(), c.what, truth.worst(), broken.y);
  }
}

} // namespace
