// RUN: normc-opt %s --convert-norm-to-sched --split-input-file | FileCheck %s

// LayerNorm: mean, centered moment, epsilon inside the root.
// CHECK-LABEL: sched.kernel @layernorm d(64) accumulate(f32) {
// CHECK-DAG:     %[[X:.*]] = sched.buffer "x" : !sched.rows<f32>
// CHECK-DAG:     %[[G:.*]] = sched.buffer "gamma" : !sched.features<f32>
// CHECK-DAG:     %[[B:.*]] = sched.buffer "beta" : !sched.features<f32>
// CHECK-DAG:     %[[Y:.*]] = sched.buffer "y" : !sched.rows<f32>
// CHECK:         %[[ROW:.*]] = sched.load_row %[[X]]
// CHECK:         %[[K:.*]] = sched.feature_count fraction 1.000000e+00
// CHECK:         %[[SUM:.*]] = sched.reduce %[[ROW]] count %[[K]] : (!sched.row<f32>) -> f32 {
// CHECK-NEXT:    ^bb0(%[[V:.*]]: f32):
// CHECK-NEXT:      sched.yield %[[V]] : f32
// CHECK:         %[[KF:.*]] = arith.sitofp %[[K]] : i32 to f32
// CHECK:         %[[MU:.*]] = arith.divf %[[SUM]], %[[KF]] : f32
// The centered second moment is a reduction of (h - mu)^2.
// CHECK:         %[[SQ:.*]] = sched.reduce %[[ROW]] count %[[K]] : (!sched.row<f32>) -> f32 {
// CHECK-NEXT:    ^bb0(%[[V:.*]]: f32):
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[V]], %[[MU]] : f32
// CHECK-NEXT:      %[[D2:.*]] = arith.mulf %[[D]], %[[D]] : f32
// CHECK-NEXT:      sched.yield %[[D2]] : f32
// CHECK:         %[[KF2:.*]] = arith.sitofp %[[K]] : i32 to f32
// CHECK:         %[[VAR:.*]] = arith.divf %[[SQ]], %[[KF2]] : f32
// CHECK:         %[[EPS:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK:         %[[T:.*]] = arith.addf %[[VAR]], %[[EPS]] : f32
// CHECK:         %[[R:.*]] = math.rsqrt %[[T]] : f32
// The affine output is a map over x, gamma and beta: ((h - mu) * r) * g + b.
// CHECK:         %[[OUT:.*]] = sched.map %[[ROW]], %[[G]], %[[B]] : (!sched.row<f32>, !sched.features<f32>, !sched.features<f32>) -> !sched.row<f32> {
// CHECK-NEXT:    ^bb0(%[[H:.*]]: f32, %[[GV:.*]]: f32, %[[BV:.*]]: f32):
// CHECK-NEXT:      %[[C:.*]] = arith.subf %[[H]], %[[MU]] : f32
// CHECK-NEXT:      %[[N:.*]] = arith.mulf %[[C]], %[[R]] : f32
// CHECK-NEXT:      %[[NG:.*]] = arith.mulf %[[N]], %[[GV]] : f32
// CHECK-NEXT:      %[[YV:.*]] = arith.addf %[[NG]], %[[BV]] : f32
// CHECK-NEXT:      sched.yield %[[YV]] : f32
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
// The residual add rounds the f64 sum to the storage type.
// CHECK:         %[[H:.*]] = sched.map %{{.*}}, %{{.*}} : (!sched.row<f32>, !sched.row<f32>) -> !sched.row<f32> {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:      %[[A64:.*]] = arith.extf %[[A]] : f32 to f64
// CHECK-NEXT:      %[[B64:.*]] = arith.extf %[[B]] : f32 to f64
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[A64]], %[[B64]] : f64
// CHECK-NEXT:      %[[S32:.*]] = arith.truncf %[[S]] : f64 to f32
// CHECK-NEXT:      sched.yield %[[S32]] : f32
// CHECK:         sched.store_row %[[H]], %[[RES]]
// CHECK:         %[[K:.*]] = sched.feature_count fraction 6.250000e-02
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         %[[KM1:.*]] = arith.subi %[[K]], %[[ONE]] : i32
// CHECK:         %[[KM1F:.*]] = arith.sitofp %[[KM1]] : i32 to f64
// CHECK:         %[[VAR:.*]] = arith.divf %{{.*}}, %[[KM1F]] : f64
// CHECK:         %[[EPS:.*]] = arith.constant 1.000000e-08 : f64
// CHECK:         %[[ROOT:.*]] = math.sqrt %[[VAR]] : f64
// CHECK:         %[[DEN:.*]] = arith.addf %[[ROOT]], %[[EPS]] : f64
// CHECK:         %[[ONE_F:.*]] = arith.constant 1.000000e+00 : f64
// CHECK:         %[[R:.*]] = arith.divf %[[ONE_F]], %[[DEN]] : f64
// CHECK:         %[[R32:.*]] = arith.truncf %[[R]] : f64 to f32
// CHECK:         sched.store_stat %[[R32]], %[[RSTD]] : f32, !sched.stats<f32>
norm.spec @partial {
  %x = norm.input "x" : tensor<?x?xf32>
  %res = norm.input "residual" : tensor<?x?xf32>
  %h = norm.residual_add %x, %res accumulate f64 : tensor<?x?xf32> -> tensor<?x?xf32>
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

// -----

// Gemma: the gain offset is added to gamma inside the map; f16 storage with
// bf16 accumulation converts through f32.
// CHECK-LABEL: sched.kernel @gemma d(8) accumulate(bf16) {
// CHECK:         sched.map %{{.*}}, %{{.*}} : (!sched.row<f16>, !sched.features<f16>) -> !sched.row<f16> {
// CHECK-NEXT:    ^bb0(%[[H:.*]]: f16, %[[G:.*]]: f16):
// CHECK-NEXT:      %[[H32:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT:      %[[HB:.*]] = arith.truncf %[[H32]] : f32 to bf16
// CHECK-NEXT:      %[[N:.*]] = arith.mulf %[[HB]], %{{.*}} : bf16
// CHECK:           %[[ONE:.*]] = arith.constant 1.000000e+00 : bf16
// CHECK-NEXT:      %[[GAIN:.*]] = arith.addf %[[ONE]], %{{.*}} : bf16
// CHECK-NEXT:      arith.mulf %[[N]], %[[GAIN]] : bf16
norm.spec @gemma {
  %x = norm.input "x" : tensor<?x8xf16>
  %g = norm.param "gamma" : tensor<8xf16>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x8xf16> -> tensor<?xbf16>
  %r = norm.rstd %s epsilon 1.0e-6 placement inside_sqrt : tensor<?xbf16>
  %y = norm.normalize %x rstd %r gain %g {gain_offset = 1.0 : f64} : (tensor<?x8xf16>, tensor<?xbf16>, tensor<8xf16>) -> tensor<?x8xf16>
  norm.output "y", %y : tensor<?x8xf16>
}

// -----

// T5LayerNorm: n = x * r is rounded to the params type and back before the
// gain multiplies it; the output is rounded once more.
// CHECK-LABEL: sched.kernel @t5 d(8) accumulate(f32) {
// CHECK:         sched.map %{{.*}}, %{{.*}} : (!sched.row<f32>, !sched.features<bf16>) -> !sched.row<f32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[G:.*]]: bf16):
// CHECK-NEXT:      %[[N:.*]] = arith.mulf %[[X]], %{{.*}} : f32
// CHECK-NEXT:      %[[NB:.*]] = arith.truncf %[[N]] : f32 to bf16
// CHECK-NEXT:      %[[NR:.*]] = arith.extf %[[NB]] : bf16 to f32
// CHECK-NEXT:      %[[G32:.*]] = arith.extf %[[G]] : bf16 to f32
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[NR]], %[[G32]] : f32
// CHECK-NEXT:      sched.yield %[[Y]] : f32
norm.spec @t5 {
  %x = norm.input "x" : tensor<?x8xf32>
  %g = norm.param "gamma" : tensor<8xbf16>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x8xf32> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 1.0e-6 placement inside_sqrt : tensor<?xf32>
  %y = norm.normalize %x rstd %r gain %g rounded to bf16 : (tensor<?x8xf32>, tensor<?xf32>, tensor<8xbf16>) -> tensor<?x8xf32>
  norm.output "y", %y : tensor<?x8xf32>
}

// -----

// A corrected mean: a second reduction of the deviations from the first
// mean cut to bf16's bits, whose mean is added to that cut mean.
// CHECK-LABEL: sched.kernel @corrected_mean
// CHECK:         %[[ROW:.*]] = sched.load_row
// CHECK:         %[[K:.*]] = sched.feature_count fraction 1.000000e+00
// CHECK:         %[[SUM:.*]] = sched.reduce %[[ROW]] count %[[K]]
// CHECK:         %[[KF:.*]] = arith.sitofp %[[K]] : i32 to f32
// CHECK:         %[[M:.*]] = arith.divf %[[SUM]], %[[KF]] : f32
// CHECK:         %[[CUT:.*]] = arith.truncf %[[M]] : f32 to bf16
// CHECK:         %[[C:.*]] = arith.extf %[[CUT]] : bf16 to f32
// CHECK:         %[[DEV:.*]] = sched.reduce %[[ROW]] count %[[K]] : (!sched.row<f32>) -> f32 {
// CHECK-NEXT:    ^bb0(%[[V:.*]]: f32):
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[V]], %[[C]] : f32
// CHECK-NEXT:      sched.yield %[[D]] : f32
// CHECK:         %[[Q:.*]] = arith.divf %[[DEV]], %[[KF]] : f32
// CHECK:         %[[MU:.*]] = arith.addf %[[C]], %[[Q]] : f32
// CHECK:         sched.map %[[ROW]]
// CHECK-NEXT:    ^bb0(%[[H:.*]]: f32):
// CHECK-NEXT:      arith.subf %[[H]], %[[MU]] : f32
norm.spec @corrected_mean {
  %x = norm.input "x" : tensor<?x64xf32>
  %mu = norm.mean %x fraction 1.0 corrected : tensor<?x64xf32> -> tensor<?xf32>
  %y = norm.normalize %x mean %mu : (tensor<?x64xf32>, tensor<?xf32>) -> tensor<?x64xf32>
  norm.output "y", %y : tensor<?x64xf32>
}
