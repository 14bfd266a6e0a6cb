// RUN: normc-opt %s --convert-norm-to-sched --split-input-file | FileCheck %s

// LayerNorm: mean, centered moment, epsilon inside the root.
// CHECK-LABEL: sched.kernel @layernorm cols(64) accumulate(f32) {
// CHECK-DAG:     %[[X:.*]] = sched.buffer "x" : !sched.rows<f32>
// CHECK-DAG:     %[[G:.*]] = sched.buffer "gamma" : !sched.features<f32>
// CHECK-DAG:     %[[B:.*]] = sched.buffer "beta" : !sched.features<f32>
// CHECK-DAG:     %[[Y:.*]] = sched.buffer "y" : !sched.rows<f32>
// CHECK:         %[[ROW:.*]] = sched.load_row %[[X]]
// CHECK:         %[[K:.*]] = sched.feature_count fraction 1.000000e+00
// CHECK:         %[[SUM:.*]] = sched.reduce sum %[[ROW]], %[[K]]
// CHECK:         %[[KF:.*]] = arith.sitofp %[[K]] : i32 to f32
// CHECK:         %[[MU:.*]] = arith.divf %[[SUM]], %[[KF]] : f32
// CHECK:         %[[SQ:.*]] = sched.reduce sum_squares %[[ROW]], %[[K]] center %[[MU]]
// CHECK:         %[[VAR:.*]] = arith.divf %[[SQ]], %{{.*}} : f32
// CHECK:         %[[EPS:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK:         %[[T:.*]] = arith.addf %[[VAR]], %[[EPS]] : f32
// CHECK:         %[[R:.*]] = math.rsqrt %[[T]] : f32
// CHECK:         %[[OUT:.*]] = sched.affine_row %[[ROW]] mean %[[MU]] rstd %[[R]] gain %[[G]] bias %[[B]]
// CHECK:         sched.store_row %[[OUT]], %[[Y]]
// CHECK-NOT:     norm.
norm.spec @layernorm {
  %x = norm.input "x" : tensor<?x64xf32>
  %g = norm.param "gamma" : tensor<64xf32>
  %b = norm.param "beta" : tensor<64xf32>
  %mu = norm.mean %x fraction 1.0 : tensor<?x64xf32> -> tensor<?xf32>
  %s = norm.moment %x center %mu : tensor<?xf32> fraction 1.0 variance biased : tensor<?x64xf32> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 1.0e-5 placement inside_sqrt : tensor<?xf32>
  %y = norm.normalize %x mean %mu rstd %r gain %g bias %b : (tensor<?x64xf32>, tensor<?xf32>, tensor<?xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  norm.output "y", %y : tensor<?x64xf32>
}

// -----

// pRMSNorm with epsilon outside the root, unbiased divisor, saved statistics
// in f32 from f64 accumulation; outputs are stored as soon as computed.
// CHECK-LABEL: sched.kernel @partial accumulate(f64) {
// CHECK:         %[[RES:.*]] = sched.buffer "residual_out" : !sched.rows<f32>
// CHECK:         %[[RSTD:.*]] = sched.buffer "rstd" : !sched.stats<f32>
// CHECK:         %[[H:.*]] = sched.add_rows
// CHECK-NEXT:    sched.store_row %[[H]], %[[RES]]
// CHECK:         %[[K:.*]] = sched.feature_count fraction 6.250000e-02
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         %[[KM1:.*]] = arith.subi %[[K]], %[[ONE]] : i32
// CHECK:         arith.sitofp %[[KM1]] : i32 to f64
// CHECK:         %[[ROOT:.*]] = math.sqrt %{{.*}} : f64
// CHECK:         %[[DEN:.*]] = arith.addf %[[ROOT]], %{{.*}} : f64
// CHECK:         %[[R:.*]] = arith.divf %{{.*}}, %[[DEN]] : f64
// CHECK:         %[[R32:.*]] = arith.truncf %[[R]] : f64 to f32
// CHECK:         sched.store_stat %[[R32]], %[[RSTD]] : f32, !sched.stats<f32>
norm.spec @partial {
  %x = norm.input "x" : tensor<?x?xf32>
  %res = norm.input "residual" : tensor<?x?xf32>
  %h = norm.residual_add %x, %res accumulate f64 : tensor<?x?xf32>
  %mu = norm.mean %h fraction 0.0625 : tensor<?x?xf32> -> tensor<?xf64>
  %s = norm.moment %h center %mu : tensor<?xf64> fraction 0.0625 variance unbiased : tensor<?x?xf32> -> tensor<?xf64>
  %r = norm.rstd %s epsilon 1.0e-8 placement outside_sqrt : tensor<?xf64>
  %y = norm.normalize %h mean %mu rstd %r : (tensor<?x?xf32>, tensor<?xf64>, tensor<?xf64>) -> tensor<?x?xf32>
  %r32 = norm.convert %r : tensor<?xf64> to tensor<?xf32>
  norm.output "y", %y : tensor<?x?xf32>
  norm.output "residual_out", %h : tensor<?x?xf32>
  norm.output "rstd", %r32 : tensor<?xf32>
}

// -----

// Without scaling, the saved rstd is the constant 1.
// CHECK-LABEL: sched.kernel @center_only accumulate(f32) {
// CHECK:         %[[RSTD:.*]] = sched.buffer "rstd" : !sched.stats<f32>
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         sched.store_stat %[[ONE]], %[[RSTD]] : f32, !sched.stats<f32>
norm.spec @center_only {
  %x = norm.input "x" : tensor<?x?xf32>
  %mu = norm.mean %x fraction 1.0 : tensor<?x?xf32> -> tensor<?xf32>
  %y = norm.normalize %x mean %mu : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %one = norm.fill %x value 1.0 : tensor<?x?xf32> -> tensor<?xf32>
  norm.output "y", %y : tensor<?x?xf32>
  norm.output "rstd", %one : tensor<?xf32>
}
