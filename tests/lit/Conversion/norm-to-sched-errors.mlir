// What convert-norm-to-sched refuses, at the op that asks for it.
// RUN: normc-opt %s --split-input-file --convert-norm-to-sched --verify-diagnostics

// The finish kernel of the sums over rows accumulates in one type.
norm.spec @mixed_row_sums {
  %x = norm.input "x" : tensor<?x8xf32>
  %r = norm.reduce %x fraction 1.0 : tensor<?x8xf32> -> tensor<?xf32>
  norm.output "r", %r : tensor<?xf32>
  %narrow = norm.map %x : (tensor<?x8xf32>) -> tensor<?x8xbf16> {
  ^bb0(%e: f32):
    %t = arith.truncf %e : f32 to bf16
    norm.yield %t : bf16
  }
  %a = norm.sum_rows %x : tensor<?x8xf32> -> tensor<8xf32>
  norm.output "a", %a : tensor<8xf32>
  // expected-error @+1 {{sums over rows in 'bf16', but an earlier norm.sum_rows in 'f32'; the kernel that finishes them has one accumulate type}}
  %b = norm.sum_rows %narrow : tensor<?x8xbf16> -> tensor<8xf32>
  norm.output "b", %b : tensor<8xf32>
}
