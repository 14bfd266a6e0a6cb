// RUN: normc-opt %s | normc-opt | FileCheck %s
// RUN: normc-opt %s --mlir-print-op-generic | normc-opt | FileCheck %s

// CHECK-LABEL: sched.kernel @rms cols(4096) accumulate(f32) schedule(#sched.schedule<rows_per_block = 1, threads_per_row = 128, vector_width = 8, row_storage = registers>)
// CHECK:         %[[X:.*]] = sched.buffer "x" : !sched.rows<bf16>
// CHECK:         %[[G:.*]] = sched.buffer "gamma" : !sched.features<bf16>
// CHECK:         %[[S:.*]] = sched.buffer "rstd" : !sched.stats<f32>
// CHECK:         %[[ROW:.*]] = sched.load_row %[[X]] : !sched.rows<bf16>
// CHECK:         %[[K:.*]] = sched.feature_count fraction 5.000000e-01
// CHECK:         %[[SUM:.*]] = sched.reduce sum %[[ROW]], %[[K]] : !sched.row<bf16> -> f32
// CHECK:         sched.reduce sum_squares %[[ROW]], %[[K]] center %[[SUM]] : f32 : !sched.row<bf16> -> f32
// CHECK:         %[[Y:.*]] = sched.affine_row %[[ROW]] mean %[[SUM]] rstd %{{.*}} gain %[[G]] {gain_offset = 1.000000e+00 : f64}
// CHECK:         sched.store_row %[[Y]], %[[X]] : !sched.row<bf16>, !sched.rows<bf16>
// CHECK:         sched.store_stat %{{.*}}, %[[S]] : f32, !sched.stats<f32>
sched.kernel @rms cols(4096) accumulate(f32) schedule(#sched.schedule<rows_per_block = 1, threads_per_row = 128, vector_width = 8, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<bf16>
  %g = sched.buffer "gamma" : !sched.features<bf16>
  %st = sched.buffer "rstd" : !sched.stats<f32>
  %row = sched.load_row %x : !sched.rows<bf16>
  %k = sched.feature_count fraction 0.5
  %sum = sched.reduce sum %row, %k : !sched.row<bf16> -> f32
  %sq = sched.reduce sum_squares %row, %k center %sum : f32 : !sched.row<bf16> -> f32
  %r = math.rsqrt %sq : f32
  %y = sched.affine_row %row mean %sum rstd %r gain %g {gain_offset = 1.0 : f64} : (!sched.row<bf16>, f32, f32, !sched.features<bf16>) -> !sched.row<bf16>
  sched.store_row %y, %x : !sched.row<bf16>, !sched.rows<bf16>
  sched.store_stat %r, %st : f32, !sched.stats<f32>
}

// A kernel whose schedule is not chosen yet, with d at run time.
// CHECK-LABEL: sched.kernel @unscheduled accumulate(f64) {
// CHECK:         sched.add_rows %{{.*}}, %{{.*}} : !sched.row<f16>
sched.kernel @unscheduled accumulate(f64) {
  %x = sched.buffer "x" : !sched.rows<f16>
  %r = sched.buffer "residual" : !sched.rows<f16>
  %a = sched.load_row %x : !sched.rows<f16>
  %b = sched.load_row %r : !sched.rows<f16>
  %h = sched.add_rows %a, %b : !sched.row<f16>
  sched.store_row %h, %r : !sched.row<f16>, !sched.rows<f16>
}
