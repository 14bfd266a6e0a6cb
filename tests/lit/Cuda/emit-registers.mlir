// RUN: %normc compile %s --emit=cuda | FileCheck %s

// Each kernel-level op prints as a few lines of CUDA.
// CHECK: #define NORMC_KERNEL(threads, name)
// CHECK-LABEL: NORMC_KERNEL(128, rms)(const __nv_bfloat16 *x, long long x_stride, const __nv_bfloat16 *gamma, __nv_bfloat16 *y, long long y_stride, float *rstd, long long rows, int) {
// CHECK:   const int d = 4096; // fixed at compile time
// CHECK:   const int lane_in_row = threadIdx.x % 128;
// CHECK:   const bool gamma_vec = normc_aligned(gamma, 16);
// kern.shared_scratch warps(4):
// CHECK:   NORMC_STATIC_SHARED(float, reduce_scratch, 4);
// kern.for_row_groups:
// CHECK:   for (long long row_group = (long long)blockIdx.x * 1; row_group < rows;
// CHECK:     const bool x_vec = normc_aligned(x_row, 16);
// kern.alloc_row vectors(4), then kern.for_chunks unrolled(4) with
// kern.load_chunk and kern.keep:
// CHECK:     alignas(16) __nv_bfloat16 [[ROW:v[0-9]+]][4][8];
// CHECK:     for (int i = 0; i < 4; ++i) {
// CHECK:       const int c = (i * 128 + lane_in_row) * 8;
// CHECK:       normc_load<8>([[CHUNK:c[0-9]+]], x_row, c, limit, x_vec);
// CHECK:         [[ROW]][i][e] = [[CHUNK]][e];
// kern.accumulator compensated and kern.accumulate:
// CHECK:     const int [[K:s[0-9]+]] = 4096;
// CHECK:     float [[SUM:a[0-9]+]] = 0.00000000e+00f;
// CHECK:     float [[SUM]]_carry = 0.00000000e+00f;
// CHECK:         if (c + e < [[K]]) {
// CHECK:           const float [[V:s[0-9]+]] = NORMC_CVT(float, [[ROW]][i][e]);
// CHECK:           const float [[SQ:s[0-9]+]] = [[V]] * [[V]];
// CHECK:           normc_add_compensated([[SUM]], [[SUM]]_carry, [[SQ]]);
// CHECK:     const float [[T:s[0-9]+]] = normc_compensated_total([[SUM]], [[SUM]]_carry);
// kern.warp_sum, kern.scratch_write, kern.barrier, kern.scratch_sum:
// CHECK:     float [[W:s[0-9]+]] = [[T]];
// CHECK-NEXT:     [[W]] += __shfl_xor_sync(0xffffffffu, [[W]], 16);
// CHECK-NEXT:     [[W]] += __shfl_xor_sync(0xffffffffu, [[W]], 8);
// CHECK-NEXT:     [[W]] += __shfl_xor_sync(0xffffffffu, [[W]], 4);
// CHECK-NEXT:     [[W]] += __shfl_xor_sync(0xffffffffu, [[W]], 2);
// CHECK-NEXT:     [[W]] += __shfl_xor_sync(0xffffffffu, [[W]], 1);
// CHECK:       reduce_scratch[row_in_block * 4 + (lane_in_row >> 5)] = [[W]];
// CHECK:     __syncthreads();
// CHECK:     float [[TOTAL:s[0-9]+]] = reduce_scratch[row_in_block * 4];
// CHECK:     for (int w = 1; w < 4; ++w)
// CHECK-NEXT:       [[TOTAL]] += reduce_scratch[row_in_block * 4 + w];
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT:     const float [[KF:s[0-9]+]] = NORMC_CVT(float, [[K]]);
// CHECK-NEXT:     const float [[MS:s[0-9]+]] = [[TOTAL]] / [[KF]];
// CHECK-NEXT:     const float [[EPS:s[0-9]+]] = 9.99999997e-07f;
// CHECK-NEXT:     const float [[T:s[0-9]+]] = [[MS]] + [[EPS]];
// CHECK-NEXT:     const float [[R:s[0-9]+]] = normc_rsqrt([[T]]);
// sched.store_stat:
// CHECK:       rstd[row] = [[R]];
// kern.map_chunk and kern.store_chunk:
// CHECK:       normc_load<8>([[G:c[0-9]+]], gamma, c, d, gamma_vec);
// CHECK:       alignas(16) __nv_bfloat16 [[OUT:c[0-9]+]][8];
// CHECK:         const float [[H:s[0-9]+]] = NORMC_CVT(float, [[ROW]][i][e]);
// CHECK:         const float [[N:s[0-9]+]] = [[H]] * [[R]];
// CHECK:         const float [[GF:s[0-9]+]] = NORMC_CVT(float, [[G]][e]);
// CHECK:         const float [[M:s[0-9]+]] = [[N]] * [[GF]];
// CHECK:         const __nv_bfloat16 [[O:s[0-9]+]] = NORMC_CVT(__nv_bfloat16, [[M]]);
// CHECK:         [[OUT]][e] = [[O]];
// CHECK:       normc_store<8>(y_row, [[OUT]], c, limit, y_vec);
// CHECK: #ifdef NORMC_CPU
// CHECK: extern "C" void normc_cpu_entry_rms(void **args) {
// CHECK:   NORMC_CPU_KERNEL(rms)(*reinterpret_cast<const __nv_bfloat16 * const *>(args[0]),
// CHECK:       *reinterpret_cast<int const *>(args[7]));
sched.kernel @rms d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 8, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<bf16>
  %g = sched.buffer "gamma" : !sched.features<bf16>
  %y = sched.buffer "y" : !sched.rows<bf16>
  %st = sched.buffer "rstd" : !sched.stats<f32>
  %row = sched.load_row %x : !sched.rows<bf16>
  %k = sched.feature_count fraction 1.0
  %sq = sched.reduce %row count %k : (!sched.row<bf16>) -> f32 {
  ^bb0(%h: bf16):
    %f = arith.extf %h : bf16 to f32
    %p = arith.mulf %f, %f : f32
    sched.yield %p : f32
  }
  %kf = arith.sitofp %k : i32 to f32
  %ms = arith.divf %sq, %kf : f32
  %eps = arith.constant 1.0e-6 : f32
  %t = arith.addf %ms, %eps : f32
  %r = math.rsqrt %t : f32
  sched.store_stat %r, %st : f32, !sched.stats<f32>
  %out = sched.map %row, %g : (!sched.row<bf16>, !sched.features<bf16>) -> !sched.row<bf16> {
  ^bb0(%h: bf16, %w: bf16):
    %f = arith.extf %h : bf16 to f32
    %n = arith.mulf %f, %r : f32
    %gf = arith.extf %w : bf16 to f32
    %m = arith.mulf %n, %gf : f32
    %o = arith.truncf %m : f32 to bf16
    sched.yield %o : bf16
  }
  sched.store_row %out, %y : !sched.row<bf16>, !sched.rows<bf16>
}
