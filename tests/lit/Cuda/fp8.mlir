// An fp8 output: the row's amax by normc_max over the chunk, the warp and
// the warps, the quotient clamped with NaN-keeping minimum/maximum and
// rounded by the toolkit's conversion, stored vector_width values at a time.
// RUN: %normc compile %s --emit=cuda | FileCheck %s
// CHECK:       #include <cuda_fp8.h>
// CHECK-LABEL: NORMC_KERNEL(256, amax)(const float *x, long long x_stride, const float *scale, __nv_fp8_e4m3 *y, long long y_stride, float *amax, long long rows, int d)
// CHECK:       const bool y_vec = normc_aligned(y_row, 4);
// CHECK:       const float [[S:s[0-9]+]] = scale[0];
// CHECK:       const float [[M:s[0-9]+]] = normc_abs(
// CHECK:       [[A:a[0-9]+]] = normc_max([[A]], [[M]]);
// CHECK:       [[W:s[0-9]+]] = normc_max([[W]], __shfl_xor_sync(0xffffffffu, [[W]], 16));
// CHECK:       normc_max({{s[0-9]+}}, reduce_scratch[row_in_block * 8 + w]);
// CHECK:       amax[row] =
// CHECK:       = normc_maximum(
// CHECK:       = normc_minimum(
// CHECK:       = NORMC_CVT(__nv_fp8_e4m3,
// CHECK:       normc_store<4>(y_row,
sched.kernel @amax accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %one = sched.buffer "scale" : !sched.scalar<f32>
  %q = sched.buffer "y" : !sched.rows<f8E4M3FN>
  %m = sched.buffer "amax" : !sched.stats<f32>
  %s = sched.load_scalar %one : !sched.scalar<f32> -> f32
  %row = sched.load_row %x : !sched.rows<f32>
  %k = sched.feature_count fraction 1.0
  %a = sched.reduce %row count %k combine(max) : (!sched.row<f32>) -> f32 {
  ^bb0(%v: f32):
    %abs = math.absf %v : f32
    sched.yield %abs : f32
  }
  sched.store_stat %a, %m : f32, !sched.stats<f32>
  %out = sched.map %row : (!sched.row<f32>) -> !sched.row<f8E4M3FN> {
  ^bb0(%v: f32):
    %lo = arith.constant -448.0 : f32
    %hi = arith.constant 448.0 : f32
    %d = arith.divf %v, %s : f32
    %c = arith.maximumf %d, %lo : f32
    %e = arith.minimumf %c, %hi : f32
    %t = arith.truncf %e : f32 to f8E4M3FN
    sched.yield %t : f8E4M3FN
  }
  sched.store_row %out, %q : !sched.row<f8E4M3FN>, !sched.rows<f8E4M3FN>
}
