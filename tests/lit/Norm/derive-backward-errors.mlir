// RUN: normc-opt %s --split-input-file --norm-derive-backward --verify-diagnostics

// expected-error @+1 {{stores no 'y' to differentiate}}
norm.spec @no_y {
  %x = norm.input "x" : tensor<?x8xf32>
  %mu = norm.mean %x fraction 1.0 : tensor<?x8xf32> -> tensor<?xf32>
  norm.output "mean", %mu : tensor<?xf32>
}

// -----

// expected-error @+1 {{computes neither statistics nor a normalization to differentiate}}
norm.spec @no_statistics {
  %x = norm.input "x" : tensor<?x8xf32>
  norm.output "y", %x : tensor<?x8xf32>
}

// -----

norm.spec @no_rule {
  %x = norm.input "x" : tensor<?x8xf32>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x8xf32> -> tensor<?xf32>
  %y = norm.map %x stats(%s : tensor<?xf32>) : (tensor<?x8xf32>) -> tensor<?x8xf32> {
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{has no derivative rule, so the norm.map that holds it cannot be differentiated}}
    %m = math.absf %a : f32
    %t = arith.mulf %m, %b : f32
    norm.yield %t : f32
  }
  norm.output "y", %y : tensor<?x8xf32>
}

// -----

// A value shared by every row (a [1] input) has no gradient the backward
// could store per row.
norm.spec @shared_operand {
  %x = norm.input "x" : tensor<?x8xf32>
  %c = norm.input "c" : tensor<1xf32>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x8xf32> -> tensor<?xf32>
  // expected-error @+1 {{cannot pass a gradient to operand #1, one value for every row}}
  %y = norm.map %x stats(%c : tensor<1xf32>) : (tensor<?x8xf32>) -> tensor<?x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.mulf %a, %b : f32
    norm.yield %t : f32
  }
  %r = norm.rstd %s epsilon 1.0e-6 placement inside_sqrt : tensor<?xf32>
  %n = norm.normalize %y rstd %r : (tensor<?x8xf32>, tensor<?xf32>) -> tensor<?x8xf32>
  norm.output "y", %n : tensor<?x8xf32>
}
