// A module may hold several kernels; each runs after those with a lower
// launch_order, on one stream, and the emitted source lists that sequence.
// RUN: %normc compile %s --emit=cuda | FileCheck %s

// CHECK: // Launch sequence (one stream, in this order): first second
// CHECK: // kernel first: d = 64 (fixed), accumulate f32, launch order 0
// CHECK: NORMC_KERNEL(128, first)(const float *x, long long x_stride, float *scale, long long rows, int)
// CHECK: extern "C" void normc_cpu_entry_first(void **args)
// CHECK: // kernel second: d = 64 (fixed), accumulate f32, launch order 1
// CHECK: NORMC_KERNEL(128, second)(const float *x, long long x_stride, const float *scale, float *y, long long y_stride, long long rows, int)
// CHECK: extern "C" void normc_cpu_entry_second(void **args)
sched.kernel @second d(64) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 8, threads_per_row = 16, vector_width = 4, row_storage = global>) attributes {launch_order = 1} {
  %x = sched.buffer "x" : !sched.rows<f32>
  %s = sched.buffer "scale" : !sched.features<f32>
  %y = sched.buffer "y" : !sched.rows<f32>
  %row = sched.load_row %x : !sched.rows<f32>
  %out = sched.map %row, %s : (!sched.row<f32>, !sched.features<f32>) -> !sched.row<f32> {
  ^bb0(%v: f32, %w: f32):
    %p = arith.mulf %v, %w : f32
    sched.yield %p : f32
  }
  sched.store_row %out, %y : !sched.row<f32>, !sched.rows<f32>
}
sched.kernel @first d(64) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 8, threads_per_row = 16, vector_width = 4, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %s = sched.buffer "scale" : !sched.stats<f32>
  %row = sched.load_row %x : !sched.rows<f32>
  %k = sched.feature_count fraction 1.0
  %sum = sched.reduce %row count %k : (!sched.row<f32>) -> f32 {
  ^bb0(%v: f32):
    sched.yield %v : f32
  }
  sched.store_stat %sum, %s : f32, !sched.stats<f32>
}
