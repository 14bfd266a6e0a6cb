// A backward spec lowers like a forward: maps and reductions over rows, the
// saved statistics read per row, the parameter gradient's sum over rows as
// partials, and a second kernel that finishes it.
// RUN: normc-opt %s --norm-derive-backward="saved-stats=true" --convert-norm-to-sched | FileCheck %s

// CHECK-LABEL: sched.kernel @prms_backward d(16) accumulate(f32) {
// CHECK:         %[[X:.*]] = sched.buffer "x" : !sched.rows<bf16>
// CHECK:         %[[RSTD:.*]] = sched.buffer "rstd" : !sched.stats<f32>
// CHECK:         %[[DX:.*]] = sched.buffer "dx" : !sched.rows<bf16>
// CHECK:         %[[P:.*]] = sched.buffer "dgamma_partials" : !sched.partials<f32>
// CHECK:         %[[R:.*]] = sched.load_stat %[[RSTD]] : !sched.stats<f32> -> f32
// CHECK:         %[[K:.*]] = sched.feature_count fraction 2.500000e-01
// The statistics' term reaches the first k features only.
// CHECK:         sched.map %{{.*}} count %[[K]] : (!sched.row<bf16>) -> !sched.row<f32>
// CHECK:         sched.store_row %{{.*}}, %[[DX]]
// CHECK:         sched.reduce_rows %{{.*}} into %[[P]] : (!sched.row<f32>) -> !sched.partials<f32>
// CHECK-LABEL: sched.kernel @prms_backward_finish d(16) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 1, row_storage = global>) attributes {launch_order = 1 : i64} {
// CHECK-NEXT:    %[[FP:.*]] = sched.buffer "dgamma_partials" : !sched.partials<f32>
// CHECK-NEXT:    %[[DG:.*]] = sched.buffer "dgamma" : !sched.features<bf16>
// CHECK-NEXT:    sched.sum_partials %[[FP]] into %[[DG]]
norm.spec @prms {
  %x = norm.input "x" : tensor<?x16xbf16>
  %g = norm.param "gamma" : tensor<16xbf16>
  %s = norm.moment %x fraction 0.25 variance biased : tensor<?x16xbf16> -> tensor<?xf32>
  %r = norm.rstd %s epsilon 1.0e-6 placement inside_sqrt : tensor<?xf32>
  %y = norm.normalize %x rstd %r gain %g : (tensor<?x16xbf16>, tensor<?xf32>, tensor<16xbf16>) -> tensor<?x16xbf16>
  norm.output "y", %y : tensor<?x16xbf16>
}
