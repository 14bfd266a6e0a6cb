// RUN: normc-opt %s | normc-opt | FileCheck %s
// RUN: normc-opt %s --mlir-print-op-generic | normc-opt | FileCheck %s

// CHECK-LABEL: norm.spec @layernorm
// CHECK:         %[[X:.*]] = norm.input "x" : tensor<?x?xf32>
// CHECK:         %[[G:.*]] = norm.param "gamma" : tensor<?xf32>
// CHECK:         %[[B:.*]] = norm.param "beta" : tensor<?xf32>
// CHECK:         %[[MU:.*]] = norm.mean %[[X]] fraction 1.000000e+00 : tensor<?x?xf32> -> tensor<?xf32>
// CHECK:         %[[S:.*]] = norm.moment %[[X]] center %[[MU]] : tensor<?xf32> fraction 1.000000e+00 variance unbiased
// CHECK:         %[[R:.*]] = norm.rstd %[[S]] epsilon 1.000000e-05 placement inside_sqrt : tensor<?xf32>
// CHECK:         %[[Y:.*]] = norm.normalize %[[X]] mean %[[MU]] rstd %[[R]] gain %[[G]] bias %[[B]]
// CHECK:         norm.output "y", %[[Y]] : tensor<?x?xf32>
norm.spec @layernorm {
  %x = norm.input "x" : tensor<?x?xf32>
  %g = norm.param "gamma" : tensor<?xf32>
  %b = norm.param "beta" : tensor<?xf32>
  %mu = norm.mean %x fraction 1.0 : tensor<?x?xf32> -> tensor<?xf32>
  %s = norm.moment %x center %mu : tensor<?xf32> fraction 1.0 variance unbiased : tensor<?x?xf32> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 1.0e-5 placement inside_sqrt : tensor<?xf32>
  %y = norm.normalize %x mean %mu rstd %r gain %g bias %b : (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  norm.output "y", %y : tensor<?x?xf32>
}

// CHECK-LABEL: norm.spec @fused_add_prms
// CHECK:         %[[H:.*]] = norm.residual_add %{{.*}}, %{{.*}} accumulate f32 : tensor<?x4096xbf16>
// CHECK:         norm.moment %[[H]] fraction 6.250000e-02 variance biased : tensor<?x4096xbf16> -> tensor<?xf32>
// CHECK:         norm.rstd %{{.*}} epsilon 1.000000e-08 placement outside_sqrt
// CHECK:         norm.normalize %[[H]] rstd %{{.*}} gain %{{.*}} {gain_offset = 1.000000e+00 : f64}
// CHECK:         norm.convert %{{.*}} : tensor<?xf32> to tensor<?xf64>
norm.spec @fused_add_prms {
  %x = norm.input "x" : tensor<?x4096xbf16>
  %r = norm.input "residual" : tensor<?x4096xbf16>
  %g = norm.param "gamma" : tensor<4096xbf16>
  %h = norm.residual_add %x, %r accumulate f32 : tensor<?x4096xbf16>
  %s = norm.moment %h fraction 0.0625 variance biased : tensor<?x4096xbf16> -> tensor<?xf32>
  %rstd = norm.rstd %s epsilon 1.0e-8 placement outside_sqrt : tensor<?xf32>
  %y = norm.normalize %h rstd %rstd gain %g {gain_offset = 1.0 : f64} : (tensor<?x4096xbf16>, tensor<?xf32>, tensor<4096xbf16>) -> tensor<?x4096xbf16>
  %wide = norm.convert %rstd : tensor<?xf32> to tensor<?xf64>
  norm.output "y", %y : tensor<?x4096xbf16>
  norm.output "residual_out", %h : tensor<?x4096xbf16>
  norm.output "rstd", %wide : tensor<?xf64>
}
