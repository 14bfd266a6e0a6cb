// RUN: normc-opt %s --split-input-file --verify-diagnostics

norm.spec @bad_fraction {
  %x = norm.input "x" : tensor<?x8xf32>
  // expected-error @+1 {{fraction must be in (0, 1], got 1.5}}
  %mu = norm.mean %x fraction 1.5 : tensor<?x8xf32> -> tensor<?xf32>
  norm.output "mean", %mu : tensor<?xf32>
}

// -----

norm.spec @unbiased_without_center {
  %x = norm.input "x" : tensor<?x8xf32>
  // expected-error @+1 {{unbiased variance requires a center (mean) operand}}
  %s = norm.moment %x fraction 1.0 variance unbiased : tensor<?x8xf32> -> tensor<?xf32>
  norm.output "s", %s : tensor<?xf32>
}

// -----

norm.spec @negative_epsilon {
  %x = norm.input "x" : tensor<?x8xf32>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x8xf32> -> tensor<?xf32>
  // expected-error @+1 {{epsilon must be finite and >= 0, got -1}}
  %r = norm.rstd %s epsilon -1.0 placement inside_sqrt : tensor<?xf32>
  norm.output "rstd", %r : tensor<?xf32>
}

// -----

norm.spec @nothing_to_normalize {
  %x = norm.input "x" : tensor<?x8xf32>
  %g = norm.param "gamma" : tensor<8xf32>
  // expected-error @+1 {{needs a mean or an rstd}}
  %y = norm.normalize %x gain %g : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  norm.output "y", %y : tensor<?x8xf32>
}

// -----

norm.spec @offset_without_gain {
  %x = norm.input "x" : tensor<?x8xf32>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x8xf32> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 0.0 placement inside_sqrt : tensor<?xf32>
  // expected-error @+1 {{gain_offset needs a gain operand}}
  %y = norm.normalize %x rstd %r {gain_offset = 1.0 : f64} : (tensor<?x8xf32>, tensor<?xf32>) -> tensor<?x8xf32>
  norm.output "y", %y : tensor<?x8xf32>
}

// -----

// expected-error @+1 {{must store at least one output}}
norm.spec @no_output {
  %x = norm.input "x" : tensor<?x8xf32>
}

// -----

norm.spec @duplicate_input {
  %x = norm.input "x" : tensor<?x8xf32>
  // expected-error @+1 {{duplicate input 'x'}}
  %y = norm.input "x" : tensor<?x8xf32>
  norm.output "y", %y : tensor<?x8xf32>
}

// -----

norm.spec @mixed_d {
  %x = norm.input "x" : tensor<?x8xf32>
  // expected-error @+1 {{feature count 16 disagrees with earlier 8}}
  %g = norm.param "gamma" : tensor<16xf32>
  norm.output "y", %x : tensor<?x8xf32>
}
