//===- GradientMutationTest.cpp - Broken backward IR fails the suite ------===//
//
// The likely mistakes of a hand-written backward, made on purpose in the
// derived norm-level IR: the statistics' terms dropped from dx, the
// backward's reductions taken over the k statistics features instead of
// all d, the gradient arriving at residual_out dropped. Each mutated IR is
// lowered, emitted and run like any other; the gradient grading must reject
// it, while the same IR unmutated passes.
//
//===----------------------------------------------------------------------===//
#include "MutatedIR.h"
#include "NumericsUtil.h"

#include "normc/Dialect/Norm/IR/NormOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace normc;
using namespace normc::test;

namespace {

/// Derives the backward of `spec`, applies `mutate`, and grades what its
/// kernels compute on one case.
GradientGrade runMutated(const dsl::Spec &spec, const Program &program,
                         int64_t d, const Mutation &mutate) {
  MutatedKernels k = compileMutated(spec, program, d, mutate);
  CaseData data = makeCase(spec, 9, d, 41);
  GradientCase grad = makeGradientCase(spec, data, program, 42);
  RunOutputs out =
      runModuleOnCpu(spec, k.emitted.kernels, k.module, inputsOf(data, grad));
  return gradeGradient(spec, data, grad, out);
}

/// Constants `from` in norm.map bodies become `to`.
Mutation replaceConstant(double from, double to) {
  return [=](ModuleOp module) {
    module.walk([&](arith::ConstantOp c) {
      auto value = dyn_cast<FloatAttr>(c.getValue());
      if (value && value.getValueAsDouble() == from &&
          c->getParentOfType<norm::MapOp>())
        c.setValueAttr(FloatAttr::get(value.getType(), to));
    });
  };
}

struct Case {
  const char *spec;
  Program program;
  int64_t d;
  const char *what;
  Mutation mutate;
};

TEST(GradientMutation, EachLikelyMistakeFailsAndTheTruthPasses) {
  const Case cases[] = {
      // ds * 2 (h - mu) / D: the variance's term, in RMSNorm and LayerNorm.
      {"llama_rmsnorm", Program::gradient(), 1000,
       "the statistics' term dropped", replaceConstant(2.0, 0.0)},
      {"layernorm", Program::gradient(true, false), 1000,
       "the statistics' term dropped", replaceConstant(2.0, 0.0)},
      // pRMSNorm: the backward sums g * h over all d features; over the
      // statistics' k features instead.
      {"prmsnorm", Program::gradient(), 1000, "reductions over k instead of d",
       [](ModuleOp module) {
         module.walk([](norm::ReduceOp r) {
           r.setFractionAttr(
               FloatAttr::get(r.getFractionAttr().getType(), 0.0625));
         });
       }},
      // The gradient arriving at residual_out, dropped from dx: its
      // element in the sum's body becomes 0.
      {"fused_add_rmsnorm", Program::gradient(false, true), 1000,
       "the dresidual_out term dropped",
       [](ModuleOp module) {
         module.walk([](norm::MapOp map) {
           for (auto [operand, arg] :
                llvm::zip(map->getOperands(), map.getBody().getArguments())) {
             auto in = operand.getDefiningOp<norm::InputOp>();
             if (!in || in.getName() != "dresidual_out")
               continue;
             OpBuilder b(&map.getBody().front(), map.getBody().front().begin());
             Value zero =
                 arith::ConstantOp::create(b, map.getLoc(), arg.getType(),
                                           b.getFloatAttr(arg.getType(), 0.0));
             arg.replaceAllUsesWith(zero);
           }
         });
       }},
  };
  for (const Case &c : cases) {
    dsl::Spec spec = loadShippedSpec(c.spec);
    GradientGrade truth = runMutated(spec, c.program, c.d, nullptr);
    EXPECT_LE(truth.worst(), 1.0) << c.spec << ": " << truth.str();
    GradientGrade broken = runMutated(spec, c.program, c.d, c.mutate);
    EXPECT_GT(broken.dx, 1.0)
        << c.spec << " with " << c.what << " passed: " << broken.str();
    std::printf("  %-18s %-32s truth %.3g, mutated %.3g of the bound\n", c.spec,
                c.what, truth.worst(), broken.worst());
  }
}

} // namespace
