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

// A stored row is not normalized; a map's row may be (Dynamic Tanh's
// tanh(alpha h)).
norm.spec @nothing_to_normalize {
  %x = norm.input "x" : tensor<?x8xbf16>
  %g = norm.param "gamma" : tensor<8xf32>
  // expected-error @+1 {{needs a mean or an rstd, or an input a norm.map normalized: a row it reads as it is would not be normalized}}
  %y = norm.normalize %x gain %g : (tensor<?x8xbf16>, tensor<8xf32>) -> tensor<?x8xf32>
  norm.output "y", %y : tensor<?x8xf32>
}

// -----

norm.spec @scalar_of_many {
  %x = norm.input "x" : tensor<?x8xf32>
  // expected-error @+1 {{is scalar, so its type must be 'tensor<1xf32>', got 'tensor<8xf32>'}}
  %a = norm.param "alpha" scalar : tensor<8xf32>
  %r = norm.fill %x value 1.0 : tensor<?x8xf32> -> tensor<?xf32>
  %y = norm.normalize %x rstd %r : (tensor<?x8xf32>, tensor<?xf32>) -> tensor<?x8xf32>
  norm.output "y", %y : tensor<?x8xf32>
}

// -----

norm.spec @scalar_sum_of_many {
  %x = norm.input "x" : tensor<?x8xf32>
  %r = norm.fill %x value 1.0 : tensor<?x8xf32> -> tensor<?xf32>
  // expected-error @+1 {{of a per-row operand is one value, a 'tensor<1xf32>'; got 'tensor<8xf32>'}}
  %s = norm.sum_rows %r : tensor<?xf32> -> tensor<8xf32>
  norm.output "dalpha", %s : tensor<8xf32>
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

// -----

norm.spec @map_rows_operand_per_row_result {
  %x = norm.input "x" : tensor<?x8xf32>
  // expected-error @+1 {{with [rows, d] or [d] operands must have a [rows, d] result}}
  %m = norm.map %x : (tensor<?x8xf32>) -> tensor<?xf32> {
  ^bb0(%a: f32):
    norm.yield %a : f32
  }
  norm.output "m", %m : tensor<?xf32>
}

// -----

norm.spec @map_yields_the_wrong_type {
  %x = norm.input "x" : tensor<?x8xf32>
  // expected-error @+1 {{body yields 'bf16', result elements are 'f32'}}
  %m = norm.map %x : (tensor<?x8xf32>) -> tensor<?x8xf32> {
  ^bb0(%a: f32):
    %b = arith.truncf %a : f32 to bf16
    norm.yield %b : bf16
  }
  norm.output "dx", %m : tensor<?x8xf32>
}

// -----

norm.spec @map_body_arguments {
  %x = norm.input "x" : tensor<?x8xf32>
  // expected-error @+1 {{body arguments must be the operands' element types}}
  %m = norm.map %x : (tensor<?x8xf32>) -> tensor<?x8xf32> {
  ^bb0(%a: f16):
    %b = arith.extf %a : f16 to f32
    norm.yield %b : f32
  }
  norm.output "dx", %m : tensor<?x8xf32>
}

// -----

norm.spec @map_bad_fraction {
  %x = norm.input "x" : tensor<?x8xf32>
  // expected-error @+1 {{fraction must be in (0, 1], got 0}}
  %m = norm.map %x fraction 0.0 : (tensor<?x8xf32>) -> tensor<?x8xf32> {
  ^bb0(%a: f32):
    norm.yield %a : f32
  }
  norm.output "dx", %m : tensor<?x8xf32>
}

// -----

norm.spec @reduce_changes_type {
  %x = norm.input "x" : tensor<?x8xf32>
  // expected-error @+1 {{sums in the operand's element type; result must be 'f32'}}
  %s = norm.reduce %x fraction 1.0 : tensor<?x8xf32> -> tensor<?xf64>
  norm.output "s", %s : tensor<?xf64>
}

// -----

// Outside a spec, where no spec checks d.
%x = norm.input "x" : tensor<?x8xf32>
// expected-error @+1 {{result has 4 features, operand has 8}}
%s = norm.sum_rows %x : tensor<?x8xf32> -> tensor<4xf32>
norm.output "dgamma", %s : tensor<4xf32>

// -----

norm.spec @sum_rows_used {
  %x = norm.input "x" : tensor<?x8xf32>
  // expected-error @+1 {{result must be stored once (norm.output)}}
  %s = norm.sum_rows %x : tensor<?x8xf32> -> tensor<8xf32>
  %m = norm.map %x, %s : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32> {
  ^bb0(%a: f32, %b: f32):
    norm.yield %a : f32
  }
  norm.output "dx", %m : tensor<?x8xf32>
}

// -----

norm.spec @map_features_as_stats {
  %x = norm.input "x" : tensor<?x8xf32>
  %g = norm.param "gamma" : tensor<8xf32>
  // expected-error @+1 {{stats operands must be per-row values}}
  %m = norm.map %x stats(%g : tensor<8xf32>) : (tensor<?x8xf32>) -> tensor<?x8xf32> {
  ^bb0(%a: f32, %b: f32):
    norm.yield %a : f32
  }
  norm.output "dx", %m : tensor<?x8xf32>
}

// -----

norm.spec @sum_rows_not_stored {
  %x = norm.input "x" : tensor<?x8xf32>
  // expected-error @+1 {{result must be stored once (norm.output)}}
  %s = norm.sum_rows %x : tensor<?x8xf32> -> tensor<8xf32>
  norm.output "x", %x : tensor<?x8xf32>
}

// -----

norm.spec @rounded_to_a_non_storage_type {
  %x = norm.input "x" : tensor<?x8xf32>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x8xf32> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 1.0e-6 placement inside_sqrt : tensor<?xf32>
  // expected-error @+1 {{attribute 'normalized_type' failed to satisfy constraint}}
  %y = norm.normalize %x rstd %r rounded to f64 : (tensor<?x8xf32>, tensor<?xf32>) -> tensor<?x8xf32>
  norm.output "y", %y : tensor<?x8xf32>
}

// -----

norm.spec @amax_of_another_type {
  %x = norm.input "x" : tensor<?x8xf32>
  // expected-error @+1 {{result must have the operand's element type 'f32'}}
  %a = norm.amax %x : tensor<?x8xf32> -> tensor<?xf64>
  norm.output "amax", %a : tensor<?xf64>
}

// -----

norm.spec @quantize_scale_type {
  %x = norm.input "x" : tensor<?x8xf32>
  %s = norm.input "s" : tensor<?xf64>
  // expected-error @+1 {{scale must have the operand's element type 'f32', got 'f64'}}
  %q = norm.quantize %x scale %s : (tensor<?x8xf32>, tensor<?xf64>) -> tensor<?x8xf8E4M3FN>
  norm.output "y", %q : tensor<?x8xf8E4M3FN>
}

// -----

norm.spec @static_scale_of_two {
  %x = norm.input "x" : tensor<?x8xf32>
  %s = norm.input "s" : tensor<2xf32>
  // expected-error @+1 {{a static scale has one element, got 2}}
  %q = norm.quantize %x scale %s : (tensor<?x8xf32>, tensor<2xf32>) -> tensor<?x8xf8E4M3FN>
  norm.output "y", %q : tensor<?x8xf8E4M3FN>
}

// -----

norm.spec @quantize_to_bf16 {
  %x = norm.input "x" : tensor<?x8xf32>
  %a = norm.amax %x : tensor<?x8xf32> -> tensor<?xf32>
  // expected-error @+1 {{result #0 must be 2D tensor of quantized element type values}}
  %q = norm.quantize %x scale %a : (tensor<?x8xf32>, tensor<?xf32>) -> tensor<?x8xbf16>
  norm.output "y", %q : tensor<?x8xbf16>
}

// -----

norm.spec @amax_group_not_a_power_of_two {
  %x = norm.input "x" : tensor<?x96xf32>
  // expected-error @+1 {{group must be a power of two in [16, 1024], got 48}}
  %a = norm.amax %x group(48) : tensor<?x96xf32> -> tensor<?x2xf32>
  norm.output "amax", %a : tensor<?x2xf32>
}

// -----

norm.spec @amax_groups_miscounted {
  %x = norm.input "x" : tensor<?x100xf32>
  // expected-error @+1 {{result must be 'tensor<?x7xf32>' (a value per row and group of 16 features), got 'tensor<?x6xf32>'}}
  %a = norm.amax %x group(16) : tensor<?x100xf32> -> tensor<?x6xf32>
  norm.output "amax", %a : tensor<?x6xf32>
}

// -----

norm.spec @amax_per_row_of_rank_two {
  %x = norm.input "x" : tensor<?x100xf32>
  // expected-error @+1 {{result must be per row without a group}}
  %a = norm.amax %x : tensor<?x100xf32> -> tensor<?x7xf32>
  norm.output "amax", %a : tensor<?x7xf32>
}

// -----

norm.spec @block_scale_without_group {
  %x = norm.input "x" : tensor<?x32xf32>
  %a = norm.amax %x group(16) : tensor<?x32xf32> -> tensor<?x2xf32>
  // expected-error @+1 {{a [rows, groups] scale needs group(G)}}
  %q = norm.quantize %x scale %a : (tensor<?x32xf32>, tensor<?x2xf32>) -> tensor<?x32xf8E4M3FN>
  norm.output "y", %q : tensor<?x32xf8E4M3FN>
}

// -----

norm.spec @block_scale_of_another_group {
  %x = norm.input "x" : tensor<?x64xf32>
  %a = norm.amax %x group(16) : tensor<?x64xf32> -> tensor<?x4xf32>
  // expected-error @+1 {{a block scale must be 'tensor<?x2xf32>' (a value per row and group of 32 features), got 'tensor<?x4xf32>'}}
  %q = norm.quantize %x scale %a group(32) : (tensor<?x64xf32>, tensor<?x4xf32>) -> tensor<?x64xf8E4M3FN>
  norm.output "y", %q : tensor<?x64xf8E4M3FN>
}

// -----

// A body that reads a value from outside it: the lowering and the
// derivative rebuild a body from its arguments alone.
norm.spec @map_captures_a_value {
  %x = norm.input "x" : tensor<?x8xf32>
  %c = arith.constant 2.0 : f32
  %h = norm.map %x : (tensor<?x8xf32>) -> tensor<?x8xf32> {
  ^bb0(%a: f32):
    // expected-error @+1 {{uses a value defined outside its norm.map body; a body reads only its arguments}}
    %p = arith.mulf %a, %c : f32
    norm.yield %p : f32
  }
  norm.output "y", %h : tensor<?x8xf32>
}

