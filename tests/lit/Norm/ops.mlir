// RUN: normc-opt %s | normc-opt | FileCheck %s
// RUN: normc-opt %s --mlir-print-op-generic | normc-opt | FileCheck %s

// CHECK-LABEL: norm.spec @layernorm
// CHECK:         %[[X:.*]] = norm.input "x" : tensor<?x?xf32>
// CHECK:         %[[G:.*]] = norm.param "gamma" : tensor<?xf32>
// CHECK:         %[[B:.*]] = norm.param "beta" : tensor<?xf32>
// CHECK:         %[[MU:.*]] = norm.mean %[[X]] fraction 1.000000e+00 corrected : tensor<?x?xf32> -> tensor<?xf32>
// CHECK:         %[[S:.*]] = norm.moment %[[X]] center %[[MU]] : tensor<?xf32> fraction 1.000000e+00 variance unbiased
// CHECK:         %[[R:.*]] = norm.rstd %[[S]] epsilon 1.000000e-05 placement inside_sqrt : tensor<?xf32>
// CHECK:         %[[Y:.*]] = norm.normalize %[[X]] mean %[[MU]] rstd %[[R]] gain %[[G]] bias %[[B]]
// CHECK:         norm.output "y", %[[Y]] : tensor<?x?xf32>
norm.spec @layernorm {
  %x = norm.input "x" : tensor<?x?xf32>
  %g = norm.param "gamma" : tensor<?xf32>
  %b = norm.param "beta" : tensor<?xf32>
  %mu = norm.mean %x fraction 1.0 corrected : tensor<?x?xf32> -> tensor<?xf32>
  %s = norm.moment %x center %mu : tensor<?xf32> fraction 1.0 variance unbiased : tensor<?x?xf32> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 1.0e-5 placement inside_sqrt : tensor<?xf32>
  %y = norm.normalize %x mean %mu rstd %r gain %g bias %b : (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  norm.output "y", %y : tensor<?x?xf32>
}

// CHECK-LABEL: norm.spec @fused_add_prms
// CHECK:         %[[H:.*]] = norm.residual_add %{{.*}}, %{{.*}} accumulate f32 : tensor<?x4096xbf16> -> tensor<?x4096xbf16>
// CHECK:         norm.moment %[[H]] fraction 6.250000e-02 variance biased : tensor<?x4096xbf16> -> tensor<?xf32>
// CHECK:         norm.rstd %{{.*}} epsilon 1.000000e-08 placement outside_sqrt
// CHECK:         norm.normalize %[[H]] rstd %{{.*}} gain %{{.*}} {gain_offset = 1.000000e+00 : f64}
// CHECK:         norm.convert %{{.*}} : tensor<?xf32> to tensor<?xf64>
norm.spec @fused_add_prms {
  %x = norm.input "x" : tensor<?x4096xbf16>
  %r = norm.input "residual" : tensor<?x4096xbf16>
  %g = norm.param "gamma" : tensor<4096xbf16>
  %h = norm.residual_add %x, %r accumulate f32 : tensor<?x4096xbf16> -> tensor<?x4096xbf16>
  %s = norm.moment %h fraction 0.0625 variance biased : tensor<?x4096xbf16> -> tensor<?xf32>
  %rstd = norm.rstd %s epsilon 1.0e-8 placement outside_sqrt : tensor<?xf32>
  %y = norm.normalize %h rstd %rstd gain %g {gain_offset = 1.0 : f64} : (tensor<?x4096xbf16>, tensor<?xf32>, tensor<4096xbf16>) -> tensor<?x4096xbf16>
  %wide = norm.convert %rstd : tensor<?xf32> to tensor<?xf64>
  norm.output "y", %y : tensor<?x4096xbf16>
  norm.output "residual_out", %h : tensor<?x4096xbf16>
  norm.output "rstd", %wide : tensor<?xf64>
}

// LlamaRMSNorm's rounding: n rounded to the input type before the gain.
// CHECK-LABEL: norm.spec @rounded_normalized
// CHECK:         norm.normalize %{{.*}} rstd %{{.*}} gain %{{.*}} rounded to bf16 : (tensor<?x64xbf16>, tensor<?xf32>, tensor<64xbf16>) -> tensor<?x64xbf16>
norm.spec @rounded_normalized {
  %x = norm.input "x" : tensor<?x64xbf16>
  %g = norm.param "gamma" : tensor<64xbf16>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x64xbf16> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 1.0e-6 placement inside_sqrt : tensor<?xf32>
  %y = norm.normalize %x rstd %r gain %g rounded to bf16 : (tensor<?x64xbf16>, tensor<?xf32>, tensor<64xbf16>) -> tensor<?x64xbf16>
  norm.output "y", %y : tensor<?x64xbf16>
}

// The generic ops a backward is built of.
// CHECK-LABEL: norm.spec @generic
// CHECK:         %[[M:.*]] = norm.map %{{.*}}, %{{.*}} stats(%{{.*}} : tensor<?xf32>) fraction 5.000000e-01 : (tensor<?x8xbf16>, tensor<8xbf16>) -> tensor<?x8xf32> {
// CHECK:           norm.count fraction 5.000000e-01 : f32
// CHECK:           norm.yield %{{.*}} : f32
// CHECK:         %[[S:.*]] = norm.reduce %[[M]] fraction 1.000000e+00 : tensor<?x8xf32> -> tensor<?xf32>
// CHECK:         norm.map stats(%[[S]] : tensor<?xf32>) : () -> tensor<?xf32>
// CHECK:         norm.sum_rows %[[M]] : tensor<?x8xf32> -> tensor<8xbf16>
norm.spec @generic {
  %x = norm.input "x" : tensor<?x8xbf16>
  %g = norm.param "gamma" : tensor<8xbf16>
  %r = norm.input "rstd" : tensor<?xf32>
  %m = norm.map %x, %g stats(%r : tensor<?xf32>) fraction 0.5 : (tensor<?x8xbf16>, tensor<8xbf16>) -> tensor<?x8xf32> {
  ^bb0(%a: bf16, %b: bf16, %c: f32):
    %a32 = arith.extf %a : bf16 to f32
    %k = norm.count fraction 0.5 : f32
    %t = arith.divf %a32, %k : f32
    %u = arith.mulf %t, %c : f32
    norm.yield %u : f32
  }
  %s = norm.reduce %m fraction 1.0 : tensor<?x8xf32> -> tensor<?xf32>
  %t = norm.map stats(%s : tensor<?xf32>) : () -> tensor<?xf32> {
  ^bb0(%a: f32):
    norm.yield %a : f32
  }
  %dg = norm.sum_rows %m : tensor<?x8xf32> -> tensor<8xbf16>
  norm.output "t", %t : tensor<?xf32>
  norm.output "dgamma", %dg : tensor<8xbf16>
}

// An fp8 output: y unrounded in the accumulate type, its per-row amax, the
// scale as a per-row map, and the quotient rounded to fp8.
// CHECK-LABEL: norm.spec @rms_fp8
// CHECK:         %[[Y:.*]] = norm.normalize %{{.*}} rstd %{{.*}} : (tensor<?x16xbf16>, tensor<?xf32>) -> tensor<?x16xf32>
// CHECK:         %[[A:.*]] = norm.amax %[[Y]] : tensor<?x16xf32> -> tensor<?xf32>
// CHECK:         norm.quantize %[[Y]] scale %{{.*}} : (tensor<?x16xf32>, tensor<?xf32>) -> tensor<?x16xf8E4M3FN>
// CHECK:         norm.quantize %[[Y]] scale %{{.*}} : (tensor<?x16xf32>, tensor<1xf32>) -> tensor<?x16xf8E5M2>
// CHECK:         norm.quantize %[[Y]] scale %{{.*}} : (tensor<?x16xf32>, tensor<?xf32>) -> tensor<?x16xi8>
norm.spec @rms_fp8 {
  %x = norm.input "x" : tensor<?x16xbf16>
  %one = norm.input "scale" : tensor<1xf32>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x16xbf16> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 1.0e-6 placement inside_sqrt : tensor<?xf32>
  %y = norm.normalize %x rstd %r : (tensor<?x16xbf16>, tensor<?xf32>) -> tensor<?x16xf32>
  %a = norm.amax %y : tensor<?x16xf32> -> tensor<?xf32>
  %q = norm.quantize %y scale %a : (tensor<?x16xf32>, tensor<?xf32>) -> tensor<?x16xf8E4M3FN>
  %q2 = norm.quantize %y scale %one : (tensor<?x16xf32>, tensor<1xf32>) -> tensor<?x16xf8E5M2>
  %q3 = norm.quantize %y scale %a : (tensor<?x16xf32>, tensor<?xf32>) -> tensor<?x16xi8>
  norm.output "y", %q : tensor<?x16xf8E4M3FN>
  norm.output "y2", %q2 : tensor<?x16xf8E5M2>
  norm.output "y3", %q3 : tensor<?x16xi8>
  norm.output "amax", %a : tensor<?xf32>
}

// Block scales: the amax per row and group of 16 features ([rows, 2] for
// d = 24, the last group shorter), its map, and the quotient by group.
// CHECK-LABEL: norm.spec @block_fp8
// CHECK:         %[[A:.*]] = norm.amax %{{.*}} group(16) : tensor<?x24xf32> -> tensor<?x2xf32>
// CHECK:         %[[S:.*]] = norm.map %[[A]] : (tensor<?x2xf32>) -> tensor<?x2xf32>
// CHECK:         norm.quantize %{{.*}} scale %[[S]] group(16) : (tensor<?x24xf32>, tensor<?x2xf32>) -> tensor<?x24xf8E4M3FN>
// CHECK:         norm.amax %{{.*}} group(32) : tensor<?x?xf32> -> tensor<?x?xf32>
norm.spec @block_fp8 {
  %x = norm.input "x" : tensor<?x24xbf16>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x24xbf16> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 1.0e-6 placement inside_sqrt : tensor<?xf32>
  %y = norm.normalize %x rstd %r : (tensor<?x24xbf16>, tensor<?xf32>) -> tensor<?x24xf32>
  %a = norm.amax %y group(16) : tensor<?x24xf32> -> tensor<?x2xf32>
  %sc = norm.map %a : (tensor<?x2xf32>) -> tensor<?x2xf32> {
  ^bb0(%v: f32):
    %max = arith.constant 448.0 : f32
    %t = arith.divf %v, %max : f32
    norm.yield %t : f32
  }
  %q = norm.quantize %y scale %sc group(16) : (tensor<?x24xf32>, tensor<?x2xf32>) -> tensor<?x24xf8E4M3FN>
  norm.output "y", %q : tensor<?x24xf8E4M3FN>
  norm.output "scale", %sc : tensor<?x2xf32>
}
norm.spec @block_runtime_d {
  %x = norm.input "x" : tensor<?x?xf32>
  %a = norm.amax %x group(32) : tensor<?x?xf32> -> tensor<?x?xf32>
  norm.output "amax", %a : tensor<?x?xf32>
}

// A scalar parameter, read by a map among its per-row operands, and the
// sum of a per-row value over the rows: one value.
// CHECK-LABEL: norm.spec @derf
// CHECK:         %[[S:.*]] = norm.param "shift" scalar : tensor<1xf32>
// CHECK:         norm.map %{{.*}} stats(%[[S]] : tensor<1xf32>)
// CHECK:           math.erf
// CHECK:         norm.normalize %{{.*}} : (tensor<?x?xf32>) -> tensor<?x?xbf16>
// CHECK:         norm.sum_rows %{{.*}} : tensor<?xf32> -> tensor<1xf32>
norm.spec @derf {
  %x = norm.input "x" : tensor<?x?xf32>
  %s = norm.param "shift" scalar : tensor<1xf32>
  %n = norm.map %x stats(%s : tensor<1xf32>) : (tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%v: f32, %c: f32):
    %u = arith.addf %v, %c : f32
    %e = math.erf %u : f32
    norm.yield %e : f32
  }
  %y = norm.normalize %n : (tensor<?x?xf32>) -> tensor<?x?xbf16>
  norm.output "y", %y : tensor<?x?xbf16>
  %r = norm.reduce %n fraction 1.0 : tensor<?x?xf32> -> tensor<?xf32>
  %t = norm.sum_rows %r : tensor<?xf32> -> tensor<1xf32>
  norm.output "dshift", %t : tensor<1xf32>
}
