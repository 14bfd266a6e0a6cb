// RUN: normc-opt %s --split-input-file --norm-derive-backward --verify-diagnostics

// expected-error @+1 {{stores no 'y' to differentiate}}
norm.spec @no_y {
  %x = norm.input "x" : tensor<?x8xf32>
  %mu = norm.mean %x fraction 1.0 : tensor<?x8xf32> -> tensor<?xf32>
  norm.output "mean", %mu : tensor<?xf32>
}

// -----

// expected-error @+1 {{computes no statistics to differentiate}}
norm.spec @no_statistics {
  %x = norm.input "x" : tensor<?x8xf32>
  norm.output "y", %x : tensor<?x8xf32>
}

// -----

norm.spec @no_rule {
  %x = norm.input "x" : tensor<?x8xf32>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x8xf32> -> tensor<?xf32>
  // expected-error @+1 {{receives a gradient but has no derivative rule}}
  %y = norm.map %x stats(%s : tensor<?xf32>) : (tensor<?x8xf32>) -> tensor<?x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.mulf %a, %b : f32
    norm.yield %t : f32
  }
  norm.output "y", %y : tensor<?x8xf32>
}
