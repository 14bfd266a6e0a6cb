// norm-derive-backward: the backward spec, by one VJP rule per op.
// RUN: normc-opt %s --split-input-file --norm-derive-backward | FileCheck %s
// RUN: normc-opt %s --split-input-file --norm-derive-backward="saved-stats=true dresidual-out=true" | FileCheck %s --check-prefix=SAVED

// pRMSNorm, epsilon outside the root: the statistics' term reaches only
// the first k = 4 of 16 features, the reduction of g * h runs over all 16,
// and dr/ds = -r^2 / (2 sqrt(s)) reads the recomputed moment.
// CHECK-LABEL: norm.spec @prms_backward
// CHECK:         %[[X:.*]] = norm.input "x" : tensor<?x16xbf16>
// CHECK:         %[[G:.*]] = norm.param "gamma" : tensor<16xbf16>
// CHECK:         %[[DY:.*]] = norm.input "dy" : tensor<?x16xbf16>
// CHECK:         %[[S:.*]] = norm.moment %[[X]] fraction 2.500000e-01
// CHECK:         %[[R:.*]] = norm.rstd %[[S]]
// CHECK:         %[[GR:.*]] = norm.map %[[DY]], %[[G]] stats(%[[R]] : tensor<?xf32>)
// CHECK:         %[[GH:.*]] = norm.map %[[DY]], %[[X]], %[[G]] :
// CHECK:         %[[DN:.*]] = norm.map %[[DY]], %[[X]] stats(%[[R]] : tensor<?xf32>)
// CHECK:         %[[DR:.*]] = norm.reduce %[[GH]] fraction 1.000000e+00
// CHECK:         %[[DS:.*]] = norm.map stats(%[[DR]], %[[R]], %[[S]] : {{.*}}) : () -> tensor<?xf32>
// CHECK:           math.sqrt
// CHECK:         %[[TERM:.*]] = norm.map %[[X]] stats(%[[DS]] : tensor<?xf32>) fraction 2.500000e-01
// CHECK:           norm.count fraction 2.500000e-01 : f32
// CHECK:         %[[SUM:.*]] = norm.map %[[GR]], %[[TERM]] :
// CHECK:         %[[DX:.*]] = norm.map %[[SUM]] : (tensor<?x16xf32>) -> tensor<?x16xbf16>
// CHECK:           arith.truncf
// CHECK:         norm.output "dx", %[[DX]] : tensor<?x16xbf16>
// CHECK:         %[[DG:.*]] = norm.sum_rows %[[DN]] : tensor<?x16xf32> -> tensor<16xbf16>
// CHECK:         norm.output "dgamma", %[[DG]]
// CHECK-NOT:     norm.normalize
// With saved statistics the rstd is read, the moment still recomputed for
// dr/ds outside the root.
// SAVED-LABEL: norm.spec @prms_backward
// SAVED:         %[[RSTD:.*]] = norm.input "rstd" : tensor<?xf32>
// SAVED:         norm.moment
// SAVED-NOT:     norm.rstd
// SAVED-NOT:     "dresidual_out"
norm.spec @prms {
  %x = norm.input "x" : tensor<?x16xbf16>
  %g = norm.param "gamma" : tensor<16xbf16>
  %s = norm.moment %x fraction 0.25 variance biased : tensor<?x16xbf16> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 1.0e-6 placement outside_sqrt : tensor<?xf32>
  %y = norm.normalize %x rstd %r gain %g : (tensor<?x16xbf16>, tensor<?xf32>, tensor<16xbf16>) -> tensor<?x16xbf16>
  norm.output "y", %y : tensor<?x16xbf16>
}

// -----

// LayerNorm after a residual add, unbiased, with a gain offset and a bias:
// x and the residual receive the same dx; the mean's cotangent sums the
// normalize rule's -g r and the moment rule's term over the features; dbeta
// is the sum of dy over the rows.
// CHECK-LABEL: norm.spec @fused_ln_backward
// CHECK:         %[[DY:.*]] = norm.input "dy"
// CHECK:         %[[H:.*]] = norm.residual_add
// CHECK:         %[[MU:.*]] = norm.mean %[[H]]
// CHECK:         norm.map %[[DY]], %{{.*}} stats(%{{.*}} : tensor<?xf32>)
// CHECK:         %[[NEG:.*]] = norm.map %[[DY]], %{{.*}} stats(%{{.*}} : tensor<?xf32>)
// CHECK:           arith.subf
// CHECK:         %[[DBETA:.*]] = norm.map %[[DY]] : (tensor<?x8xf32>) -> tensor<?x8xf32>
// CHECK:         norm.map %[[H]] stats({{.*}}, %[[MU]] : tensor<?xf32>, tensor<?xf32>) :
// CHECK:           arith.constant 2.000000e+00 : f32
// CHECK:         %[[MOMENT_MU:.*]] = norm.map %[[H]] stats({{.*}}, %[[MU]] : tensor<?xf32>, tensor<?xf32>) :
// CHECK:           arith.constant -2.000000e+00 : f32
// CHECK:         %[[BOTH:.*]] = norm.map %[[NEG]], %[[MOMENT_MU]] :
// CHECK:         %[[DMU:.*]] = norm.reduce %[[BOTH]] fraction 1.000000e+00
// CHECK:         norm.map stats(%[[DMU]] : tensor<?xf32>) : () -> tensor<?x8xf32>
// CHECK:           norm.count fraction 1.000000e+00 : f32
// CHECK:         norm.output "dx", %[[DX:[0-9]+]] : tensor<?x8xf32>
// CHECK-NEXT:    norm.output "dresidual", %[[DX]] : tensor<?x8xf32>
// CHECK:         norm.sum_rows %[[DBETA]]
// CHECK-NEXT:    norm.output "dbeta"
// The saved statistics replace the mean and rstd (no moment is left with
// epsilon inside the root), and the gradient at residual_out joins dx.
// SAVED-LABEL: norm.spec @fused_ln_backward
// SAVED:         %[[DH:.*]] = norm.input "dresidual_out" : tensor<?x8xf32>
// SAVED-NEXT:    norm.input "mean" : tensor<?xf32>
// SAVED-NEXT:    norm.input "rstd" : tensor<?xf32>
// SAVED-NOT:     norm.mean
// SAVED-NOT:     norm.moment
// SAVED:         %[[DX:.*]] = norm.map %[[DH]], {{.*}} : (tensor<?x8xf32>, tensor<?x8xf32>, tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
// SAVED:         norm.output "dx", %[[DX]]
// SAVED-NEXT:    norm.output "dresidual", %[[DX]]
norm.spec @fused_ln {
  %x = norm.input "x" : tensor<?x8xf32>
  %res = norm.input "residual" : tensor<?x8xf32>
  %g = norm.param "gamma" : tensor<8xf32>
  %b = norm.param "beta" : tensor<8xf32>
  %h = norm.residual_add %x, %res accumulate f32 : tensor<?x8xf32> -> tensor<?x8xf32>
  %mu = norm.mean %h fraction 1.0 : tensor<?x8xf32> -> tensor<?xf32>
  %s = norm.moment %h center %mu : tensor<?xf32> fraction 1.0 variance unbiased : tensor<?x8xf32> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 1.0e-5 placement inside_sqrt : tensor<?xf32>
  %y = norm.normalize %h mean %mu rstd %r gain %g bias %b {gain_offset = 1.0 : f64} : (tensor<?x8xf32>, tensor<?xf32>, tensor<?xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  norm.output "y", %y : tensor<?x8xf32>
  norm.output "residual_out", %h : tensor<?x8xf32>
}

// -----

// accumulate_rows: the row's arithmetic stays in bf16; the parameters'
// gradients are converted to f32 per row and summed over the rows in f32,
// dbeta (dy itself) too.
// CHECK-LABEL: norm.spec @bf16_rows_backward {
// CHECK:         %[[DY:.*]] = norm.input "dy" : tensor<?x8xbf16>
// CHECK:         %[[DN:.*]] = norm.map %[[DY]], %{{.*}} stats(%{{.*}} : tensor<?xbf16>) : (tensor<?x8xbf16>, tensor<?x8xbf16>) -> tensor<?x8xbf16>
// CHECK:         %[[DB:.*]] = norm.map %[[DY]] : (tensor<?x8xbf16>) -> tensor<?x8xbf16>
// CHECK:         norm.output "dx", %{{.*}} : tensor<?x8xbf16>
// CHECK:         %[[DN32:.*]] = norm.map %[[DN]] : (tensor<?x8xbf16>) -> tensor<?x8xf32> {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: bf16):
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[E]] : bf16 to f32
// CHECK-NEXT:      norm.yield %[[W]] : f32
// CHECK:         %[[DG:.*]] = norm.sum_rows %[[DN32]] : tensor<?x8xf32> -> tensor<8xbf16>
// CHECK:         norm.output "dgamma", %[[DG]]
// CHECK:         %[[DB32:.*]] = norm.map %[[DB]] : (tensor<?x8xbf16>) -> tensor<?x8xf32>
// CHECK:         %[[DBETA:.*]] = norm.sum_rows %[[DB32]] : tensor<?x8xf32> -> tensor<8xbf16>
// CHECK:         norm.output "dbeta", %[[DBETA]]
norm.spec @bf16_rows accumulate_rows(f32) {
  %x = norm.input "x" : tensor<?x8xbf16>
  %g = norm.param "gamma" : tensor<8xbf16>
  %b = norm.param "beta" : tensor<8xbf16>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x8xbf16> -> tensor<?xbf16>
  %r = norm.rstd %s epsilon 1.0e-6 placement inside_sqrt : tensor<?xbf16>
  %y = norm.normalize %x rstd %r gain %g bias %b : (tensor<?x8xbf16>, tensor<?xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<?x8xbf16>
  norm.output "y", %y : tensor<?x8xbf16>
}

// -----

// A gate before the statistics, h' = x * sigmoid(z), is a norm.map, and its
// derivative is its body's in reverse: x receives dh' act(z) (the body
// recomputed, then the cotangent times the division's result) and z
// receives dh' x act'(z) through the division and the exp (whose
// contribution is 0 where the cotangent is, not 0 * inf). Both are rounded
// to bf16 and stored as dx and dz.
// CHECK-LABEL: norm.spec @gated_backward
// CHECK:         %[[X:.*]] = norm.input "x" : tensor<?x8xbf16>
// CHECK:         %[[Z:.*]] = norm.input "z" : tensor<?x8xbf16>
// CHECK:         %[[H:.*]] = norm.map %[[X]], %[[Z]] :
// CHECK:         %[[S:.*]] = norm.moment %[[H]]
// CHECK:         %[[DH:.*]] = norm.map %{{.*}}, %{{.*}} : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
// CHECK:         %[[DXA:.*]] = norm.map %[[Z]], %[[DH]] : (tensor<?x8xbf16>, tensor<?x8xf32>) -> tensor<?x8xf32> {
// CHECK:           math.exp
// CHECK:           %[[ACT:.*]] = arith.divf
// CHECK:           %[[P:.*]] = arith.mulf %{{.*}}, %[[ACT]] : f32
// CHECK-NEXT:      norm.yield %[[P]] : f32
// CHECK:         %[[DZA:.*]] = norm.map %[[X]], %[[Z]], %[[DH]] :
// CHECK:           %[[E:.*]] = math.exp
// CHECK:           arith.mulf %{{.*}}, %[[E]] : f32
// CHECK:           arith.cmpf oeq
// CHECK:           arith.select
// CHECK:           norm.yield
// CHECK:         norm.output "dx"
// CHECK:         norm.output "dz"
norm.spec @gated {
  %x = norm.input "x" : tensor<?x8xbf16>
  %z = norm.input "z" : tensor<?x8xbf16>
  %h = norm.map %x, %z : (tensor<?x8xbf16>, tensor<?x8xbf16>) -> tensor<?x8xf32> {
  ^bb0(%a: bf16, %b: bf16):
    %v = arith.extf %b : bf16 to f32
    %zero = arith.constant 0.0 : f32
    %n = arith.subf %zero, %v : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %e : f32
    %act = arith.divf %one, %den : f32
    %w = arith.extf %a : bf16 to f32
    %p = arith.mulf %w, %act : f32
    norm.yield %p : f32
  }
  %s = norm.moment %h fraction 1.0 variance biased : tensor<?x8xf32> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 1.0e-6 placement inside_sqrt : tensor<?xf32>
  %y = norm.normalize %h rstd %r : (tensor<?x8xf32>, tensor<?xf32>) -> tensor<?x8xbf16>
  norm.output "y", %y : tensor<?x8xbf16>
}

// -----

// Dynamic Tanh, y = gamma * tanh(alpha x): no statistics, so the normalize
// only applies the gain. x receives g alpha tanh'(u) and the scalar alpha g x
// tanh'(u), with tanh'(u) = 4 e / (1 + e)^2, e = exp(-2 |u|), which keeps
// its digits where tanh(u) rounds to 1. alpha's [rows, d] terms are summed
// over each row's features, then over the rows into its one value: dalpha.
// CHECK-LABEL: norm.spec @dyt_backward
// CHECK:         %[[X:.*]] = norm.input "x" : tensor<?x8xf32>
// CHECK:         %[[A:.*]] = norm.param "alpha" scalar : tensor<1xbf16>
// CHECK:         %[[G:.*]] = norm.map %{{.*}}, %{{.*}} :
// CHECK:         %[[DX:.*]] = norm.map %[[X]], %[[G]] stats(%[[A]] : tensor<1xbf16>)
// CHECK:           math.absf
// CHECK:           math.exp
// CHECK:           arith.divf
// CHECK:         %[[DA:.*]] = norm.map %[[X]], %[[G]] stats(%[[A]] : tensor<1xbf16>)
// CHECK:         norm.output "dx", %[[DX]]
// CHECK:         %[[RS:.*]] = norm.reduce %[[DA]] fraction 1.0{{.*}} -> tensor<?xf32>
// CHECK:         %[[SUM:.*]] = norm.sum_rows %[[RS]] : tensor<?xf32> -> tensor<1xbf16>
// CHECK:         norm.output "dalpha", %[[SUM]] : tensor<1xbf16>
norm.spec @dyt {
  %x = norm.input "x" : tensor<?x8xf32>
  %g = norm.param "gamma" : tensor<8xf32>
  %a = norm.param "alpha" scalar : tensor<1xbf16>
  %n = norm.map %x stats(%a : tensor<1xbf16>) : (tensor<?x8xf32>) -> tensor<?x8xf32> {
  ^bb0(%v: f32, %s: bf16):
    %w = arith.extf %s : bf16 to f32
    %u = arith.mulf %w, %v : f32
    %t = math.tanh %u : f32
    norm.yield %t : f32
  }
  %y = norm.normalize %n gain %g : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  norm.output "y", %y : tensor<?x8xf32>
}

// -----

// A scalar read by a per-row map receives per-row terms: summed over the
// rows with no sum over features.
// CHECK-LABEL: norm.spec @scalar_per_row_backward
// CHECK:         %[[A:.*]] = norm.param "alpha" scalar : tensor<1xf32>
// CHECK:         %[[T:.*]] = norm.map stats(%{{.*}} : tensor<?xf32>) : () -> tensor<?xf32>
// CHECK-NOT:     norm.reduce
// CHECK:         norm.sum_rows %[[T]] : tensor<?xf32> -> tensor<1xf32>
// CHECK:         norm.output "dalpha"
norm.spec @scalar_per_row {
  %x = norm.input "x" : tensor<?x8xf32>
  %a = norm.param "alpha" scalar : tensor<1xf32>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x8xf32> -> tensor<?xf32>
  %t = norm.map stats(%a, %s : tensor<1xf32>, tensor<?xf32>) : () -> tensor<?xf32> {
  ^bb0(%p: f32, %q: f32):
    %u = arith.addf %p, %q : f32
    norm.yield %u : f32
  }
  %r = norm.rstd %t epsilon 1.0e-6 placement inside_sqrt : tensor<?xf32>
  %y = norm.normalize %x rstd %r : (tensor<?x8xf32>, tensor<?xf32>) -> tensor<?x8xf32>
  norm.output "y", %y : tensor<?x8xf32>
}
