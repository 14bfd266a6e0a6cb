// RUN: normc-opt %s --convert-norm-to-sched --split-input-file | FileCheck %s

// A per-row scale: y is a recomputed map in the accumulate type, its amax a
// max reduction of |y|, and q a map that divides, clamps and rounds to fp8.
// CHECK-LABEL: sched.kernel @rows_fp8 d(64) accumulate(f32) {
// CHECK-DAG:     %[[X:.*]] = sched.buffer "x" : !sched.rows<bf16>
// CHECK-DAG:     %[[Q:.*]] = sched.buffer "y" : !sched.rows<f8E4M3FN>
// CHECK-DAG:     %[[S:.*]] = sched.buffer "scale" : !sched.stats<f32>
// CHECK:         %[[Y:.*]] = sched.map %{{.*}} recompute : (!sched.row<bf16>) -> !sched.row<f32>
// CHECK:         %[[A:.*]] = sched.reduce %[[Y]] count %{{.*}} combine(max) : (!sched.row<f32>) -> f32 {
// CHECK:           math.absf
// CHECK:         %[[SC:.*]] = arith.select
// CHECK:         sched.store_stat %[[SC]], %[[S]]
// CHECK:         %[[QV:.*]] = sched.map %[[Y]] : (!sched.row<f32>) -> !sched.row<f8E4M3FN> {
// CHECK:           %[[D:.*]] = arith.divf %{{.*}}, %[[SC]] : f32
// CHECK:           %[[LO:.*]] = arith.maximumf %[[D]], %{{.*}} : f32
// CHECK:           %[[HI:.*]] = arith.minimumf %[[LO]], %{{.*}} : f32
// CHECK:           arith.truncf %[[HI]] : f32 to f8E4M3FN
// CHECK:         sched.store_row %[[QV]], %[[Q]] : !sched.row<f8E4M3FN>, !sched.rows<f8E4M3FN>
norm.spec @rows_fp8 {
  %x = norm.input "x" : tensor<?x64xbf16>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x64xbf16> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 1.0e-6 placement inside_sqrt : tensor<?xf32>
  %y = norm.normalize %x rstd %r : (tensor<?x64xbf16>, tensor<?xf32>) -> tensor<?x64xf32>
  %a = norm.amax %y : tensor<?x64xf32> -> tensor<?xf32>
  %sc = norm.map stats(%a : tensor<?xf32>) : () -> tensor<?xf32> {
  ^bb0(%v: f32):
    %zero = arith.constant 0.0 : f32
    %max = arith.constant 448.0 : f32
    %one = arith.constant 1.0 : f32
    %z = arith.cmpf oeq, %v, %zero : f32
    %ratio = arith.divf %v, %max : f32
    %t = arith.select %z, %one, %ratio : f32
    norm.yield %t : f32
  }
  %q = norm.quantize %y scale %sc : (tensor<?x64xf32>, tensor<?xf32>) -> tensor<?x64xf8E4M3FN>
  norm.output "y", %q : tensor<?x64xf8E4M3FN>
  norm.output "scale", %sc : tensor<?xf32>
}

// -----

// A static scale: a scalar buffer read once per row, and the amax stored.
// CHECK-LABEL: sched.kernel @static_fp8 accumulate(f32) {
// CHECK-DAG:     %[[ONE:.*]] = sched.buffer "scale" : !sched.scalar<f32>
// CHECK-DAG:     %[[AMAX:.*]] = sched.buffer "amax" : !sched.stats<f32>
// CHECK:         %[[S:.*]] = sched.load_scalar %[[ONE]] : !sched.scalar<f32> -> f32
// CHECK:         %[[A:.*]] = sched.reduce %{{.*}} combine(max)
// CHECK:         sched.store_stat %[[A]], %[[AMAX]]
// CHECK:         sched.map %{{.*}} : (!sched.row<f32>) -> !sched.row<f8E5M2> {
// CHECK:           arith.divf %{{.*}}, %[[S]] : f32
norm.spec @static_fp8 {
  %x = norm.input "x" : tensor<?x?xf32>
  %one = norm.input "scale" : tensor<1xf32>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x?xf32> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 1.0e-6 placement inside_sqrt : tensor<?xf32>
  %y = norm.normalize %x rstd %r : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %a = norm.amax %y : tensor<?x?xf32> -> tensor<?xf32>
  %q = norm.quantize %y scale %one : (tensor<?x?xf32>, tensor<1xf32>) -> tensor<?x?xf8E5M2>
  norm.output "y", %q : tensor<?x?xf8E5M2>
  norm.output "amax", %a : tensor<?xf32>
}

// -----

// Block scales: the amax per group is a sched.group_max (a row whose
// features hold their group's amax), the scale a recomputed map of it, q a
// map of y and the scale row, and the scale a store of each group's first
// feature into a [rows, groups] buffer.
// CHECK-LABEL: sched.kernel @block_fp8 d(100) accumulate(f32) {
// CHECK-DAG:     %[[SB:.*]] = sched.buffer "scale" : !sched.groups<f32>
// CHECK-DAG:     %[[Q:.*]] = sched.buffer "y" : !sched.rows<f8E4M3FN>
// CHECK:         %[[Y:.*]] = sched.map %{{.*}} recompute : (!sched.row<bf16>) -> !sched.row<f32>
// CHECK:         %[[A:.*]] = sched.group_max %[[Y]] group(16) : (!sched.row<f32>) -> !sched.row<f32> {
// CHECK:           math.absf
// CHECK:         %[[S:.*]] = sched.map %[[A]] recompute : (!sched.row<f32>) -> !sched.row<f32>
// CHECK:         sched.store_groups %[[S]], %[[SB]] group(16) : !sched.row<f32>, !sched.groups<f32>
// CHECK:         %[[QV:.*]] = sched.map %[[Y]], %[[S]] : (!sched.row<f32>, !sched.row<f32>) -> !sched.row<f8E4M3FN> {
// CHECK:         ^bb0(%[[V:.*]]: f32, %[[SV:.*]]: f32):
// CHECK:           arith.divf %[[V]], %[[SV]] : f32
// CHECK:         sched.store_row %[[QV]], %[[Q]]
norm.spec @block_fp8 {
  %x = norm.input "x" : tensor<?x100xbf16>
  %s = norm.moment %x fraction 1.0 variance biased : tensor<?x100xbf16> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 1.0e-6 placement inside_sqrt : tensor<?xf32>
  %y = norm.normalize %x rstd %r : (tensor<?x100xbf16>, tensor<?xf32>) -> tensor<?x100xf32>
  %a = norm.amax %y group(16) : tensor<?x100xf32> -> tensor<?x7xf32>
  %sc = norm.map %a : (tensor<?x7xf32>) -> tensor<?x7xf32> {
  ^bb0(%v: f32):
    %max = arith.constant 448.0 : f32
    %t = arith.divf %v, %max : f32
    norm.yield %t : f32
  }
  %q = norm.quantize %y scale %sc group(16) : (tensor<?x100xf32>, tensor<?x7xf32>) -> tensor<?x100xf8E4M3FN>
  norm.output "y", %q : tensor<?x100xf8E4M3FN>
  norm.output "scale", %sc : tensor<?x7xf32>
}
