// RUN: %normc compile %s --emit=cuda | FileCheck %s

// CHECK: #define NORMC_KERNEL(threads, name)
// CHECK-LABEL: NORMC_KERNEL(128, rms)(const __nv_bfloat16 *x, long long x_stride, const __nv_bfloat16 *gamma, __nv_bfloat16 *y, long long y_stride, float *rstd, long long rows, int cols) {
// CHECK:   const int d = 4096; // fixed at compile time
// CHECK:   const int lane_in_row = threadIdx.x % 128;
// CHECK:   NORMC_STATIC_SHARED(float, reduce_scratch, 4);
// CHECK:   const bool gamma_vec = normc_aligned(gamma, 16);
// CHECK:   for (long long row_group = (long long)blockIdx.x * 1; row_group < rows;
// CHECK:     const bool x_vec = normc_aligned(x_row, 16);
// The row stays in registers: 4 vectors of 8 per thread.
// CHECK:     alignas(16) __nv_bfloat16 [[ROW:v[0-9]+]][4][8];
// CHECK:     for (int i = 0; i < 4; ++i) {
// CHECK:       const int c = (i * 128 + lane_in_row) * 8;
// CHECK:       normc_load<8>([[CHUNK:c[0-9]+]], x_row, c, limit, x_vec);
// CHECK:         [[ROW]][i][e] = [[CHUNK]][e];
// CHECK:     const int [[K:s[0-9]+]] = 4096;
// CHECK:     float [[SUM:s[0-9]+]] = 0.00000000e+00f;
// CHECK:         if (c + e < [[K]]) {
// CHECK:           const float t = NORMC_CVT(float, [[ROW]][i][e]);
// CHECK:           [[SUM]] += t * t;
// Warp shuffles, then shared memory across the 4 warps of the row.
// CHECK:     [[SUM]] += __shfl_xor_sync(0xffffffffu, [[SUM]], 16);
// CHECK:     [[SUM]] += __shfl_xor_sync(0xffffffffu, [[SUM]], 1);
// CHECK:       reduce_scratch[row_in_block * 4 + (lane_in_row >> 5)] = [[SUM]];
// CHECK:     __syncthreads();
// CHECK:     for (int w = 1; w < 4; ++w)
// CHECK:     __syncthreads(); // reduce_scratch is reused by the next reduction
// CHECK:     const float [[EPS:s[0-9]+]] = 9.99999997e-07f;
// CHECK:     const float [[R:s[0-9]+]] = normc_rsqrt(
// CHECK:       rstd[row] = [[R]];
// CHECK:       normc_load<8>([[G:c[0-9]+]], gamma, c, d, gamma_vec);
// CHECK:         const float t = NORMC_CVT(float, [[ROW]][i][e]) * [[R]] * NORMC_CVT(float, [[G]][e]);
// CHECK:       normc_store<8>(y_row, {{c[0-9]+}}, c, limit, y_vec);
// CHECK: #ifdef NORMC_CPU
// CHECK: extern "C" void normc_cpu_entry_rms(void **args) {
// CHECK:   rms(*reinterpret_cast<const __nv_bfloat16 * const *>(args[0]),
// CHECK:       *reinterpret_cast<int const *>(args[7]));
sched.kernel @rms cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 8, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<bf16>
  %g = sched.buffer "gamma" : !sched.features<bf16>
  %y = sched.buffer "y" : !sched.rows<bf16>
  %st = sched.buffer "rstd" : !sched.stats<f32>
  %row = sched.load_row %x : !sched.rows<bf16>
  %k = sched.feature_count fraction 1.0
  %sq = sched.reduce sum_squares %row, %k : !sched.row<bf16> -> f32
  %kf = arith.sitofp %k : i32 to f32
  %ms = arith.divf %sq, %kf : f32
  %eps = arith.constant 1.0e-6 : f32
  %t = arith.addf %ms, %eps : f32
  %r = math.rsqrt %t : f32
  sched.store_stat %r, %st : f32, !sched.stats<f32>
  %out = sched.affine_row %row rstd %r gain %g : (!sched.row<bf16>, f32, !sched.features<bf16>) -> !sched.row<bf16>
  sched.store_row %out, %y : !sched.row<bf16>, !sched.rows<bf16>
}
