//===- ScalarOps.cpp - The arith and math ops a kernel may hold -----------===//
#include "normc/Dialect/Sched/IR/ScalarOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using Kind = normc::sched::ScalarForm::Kind;

std::optional<normc::sched::ScalarForm>
normc::sched::getScalarForm(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<ScalarForm>>(op)
      .Case<arith::ConstantOp>([](auto) { return ScalarForm{Kind::Constant}; })
      .Case<arith::AddFOp, arith::AddIOp>([](auto) {
        return ScalarForm{Kind::Infix, "+"};
      })
      .Case<arith::SubFOp, arith::SubIOp>([](auto) {
        return ScalarForm{Kind::Infix, "-"};
      })
      .Case<arith::MulFOp>([](auto) {
        return ScalarForm{Kind::Infix, "*"};
      })
      .Case<arith::DivFOp>([](auto) {
        return ScalarForm{Kind::Infix, "/"};
      })
      .Case<arith::CmpFOp>([](arith::CmpFOp cmp) -> std::optional<ScalarForm> {
        // Only equality: the one comparison the lowering makes.
        if (cmp.getPredicate() != arith::CmpFPredicate::OEQ)
          return std::nullopt;
        return ScalarForm{Kind::Infix, "=="};
      })
      .Case<arith::SIToFPOp, arith::TruncFOp, arith::ExtFOp, arith::FPToSIOp>(
          [](auto) { return ScalarForm{Kind::Convert}; })
      .Case<arith::SelectOp>([](auto) { return ScalarForm{Kind::Select}; })
      .Case<arith::MinimumFOp>([](auto) {
        return ScalarForm{Kind::Call, "normc_minimum"};
      })
      .Case<arith::MaximumFOp>([](auto) {
        return ScalarForm{Kind::Call, "normc_maximum"};
      })
      .Case<math::AbsFOp>([](auto) {
        return ScalarForm{Kind::Call, "normc_abs"};
      })
      .Case<math::SqrtOp>([](auto) {
        return ScalarForm{Kind::Call, "normc_sqrt"};
      })
      .Case<math::RsqrtOp>([](auto) {
        return ScalarForm{Kind::Call, "normc_rsqrt"};
      })
      .Case<math::ExpOp>([](auto) {
        return ScalarForm{Kind::Call, "normc_exp"};
      })
      .Case<math::TanhOp>([](auto) {
        return ScalarForm{Kind::Call, "normc_tanh"};
      })
      .Case<math::ErfOp>([](auto) {
        return ScalarForm{Kind::Call, "normc_erf"};
      })
      .Case<math::RoundEvenOp>([](auto) {
        return ScalarForm{Kind::Call, "normc_roundeven"};
      })
      .Default([](Operation *) { return std::nullopt; });
}
