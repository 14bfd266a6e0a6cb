// Reductions across rows, as the backward's dgamma needs: per-row-group
// partial sums per feature, then a second kernel that adds the partial rows
// in order.
// RUN: normc-opt %s --convert-sched-to-kern | FileCheck %s --check-prefix=LOOPS
// RUN: %normc compile %s --emit=cuda | FileCheck %s --check-prefix=CUDA
// RUN: %normc compile %s --emit=ptx --arch=sm_90 | FileCheck %s --check-prefix=PTX

// Each row group's sums live in its own row of the partials (row storage
// is global here), zeroed by a pass before the row loop and added to for
// every row it handles: no other thread touches them.
// LOOPS-LABEL: kern.kernel @dgamma_partials
// LOOPS:         %[[P:.*]] = sched.buffer "partials" : !sched.partials<f32>
// LOOPS-NEXT:    kern.for_chunks {
// LOOPS-NEXT:      %[[Z:.*]] = kern.map_chunk : () -> !sched.chunk<f32> {
// LOOPS-NEXT:        arith.constant 0.000000e+00 : f32
// LOOPS:           kern.store_partials %[[Z]], %[[P]]
// LOOPS:         kern.for_row_groups {
// LOOPS-NEXT:      kern.for_chunks {
// LOOPS-NEXT:        %[[X:.*]] = kern.load_chunk %{{.*}} : !sched.rows<bf16>
// LOOPS-NEXT:        %[[DY:.*]] = kern.load_chunk %{{.*}} : !sched.rows<bf16>
// LOOPS-NEXT:        kern.accumulate_row %[[P]], %[[X]], %[[DY]] : !sched.partials<f32>, !sched.chunk<bf16>, !sched.chunk<bf16> {
// LOOPS:             arith.mulf
// LOOPS-NOT:     kern.barrier
// The kernel after it: a thread per feature adds the partial rows in order.
// LOOPS-LABEL: kern.kernel @dgamma_finish
// LOOPS:         %[[PS:.*]] = sched.buffer "partials" : !sched.partials<f32>
// LOOPS-NEXT:    %[[OUT:.*]] = sched.buffer "dgamma" : !sched.features<bf16>
// LOOPS-NEXT:    kern.for_features {
// LOOPS-NEXT:      %[[T:.*]] = kern.sum_column %[[PS]] compensated : !sched.partials<f32> -> f32
// LOOPS-NEXT:      %[[V:.*]] = arith.truncf %[[T]] : f32 to bf16
// LOOPS-NEXT:      kern.store_feature %[[V]], %[[OUT]] : bf16, !sched.features<bf16>

// CUDA: // Launch sequence (one stream, in this order): dgamma_partials dgamma_finish
// CUDA-LABEL: NORMC_KERNEL(128, dgamma_partials)(const __nv_bfloat16 *x, long long x_stride, const __nv_bfloat16 *dy, long long dy_stride, float *partials, long long rows, int d)
// CUDA:   float *partials_row = partials + ((long long)blockIdx.x * 4 + row_in_block) * d;
// CUDA:   for (int c = lane_in_row * 4; c < d; c += 128) {
// CUDA:         partials_row[c + e] = {{c[0-9]+}}[e];
// CUDA:       if (row < rows) {
// CUDA:             partials_row[c + e] += {{s[0-9]+}};
// CUDA-NOT: __syncthreads
// CUDA-LABEL: NORMC_KERNEL(128, dgamma_finish)(const float *partials, __nv_bfloat16 *dgamma, long long rows, int d)
// CUDA:   for (int f = blockIdx.x * blockDim.x + threadIdx.x; f < d; f += gridDim.x * blockDim.x) {
// CUDA:     for (long long b = 0; b < rows; ++b)
// CUDA:       normc_add_compensated([[T:s[0-9]+]], [[T]]_carry, partials[b * d + f]);
// CUDA:     [[T]] = normc_compensated_total([[T]], [[T]]_carry);
// CUDA:     const __nv_bfloat16 [[V:s[0-9]+]] = NORMC_CVT(__nv_bfloat16, [[T]]);
// CUDA:     dgamma[f] = [[V]];

// PTX: .visible .entry dgamma_partials(
// PTX: .visible .entry dgamma_finish(
sched.kernel @dgamma_partials accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 4, threads_per_row = 32, vector_width = 4, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<bf16>
  %dy = sched.buffer "dy" : !sched.rows<bf16>
  %p = sched.buffer "partials" : !sched.partials<f32>
  %a = sched.load_row %x : !sched.rows<bf16>
  %g = sched.load_row %dy : !sched.rows<bf16>
  sched.reduce_rows %a, %g into %p : (!sched.row<bf16>, !sched.row<bf16>) -> !sched.partials<f32> {
  ^bb0(%u: bf16, %v: bf16):
    %u32 = arith.extf %u : bf16 to f32
    %v32 = arith.extf %v : bf16 to f32
    %m = arith.mulf %u32, %v32 : f32
    sched.yield %m : f32
  }
}
sched.kernel @dgamma_finish accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 1, row_storage = global>) attributes {launch_order = 1} {
  %p = sched.buffer "partials" : !sched.partials<f32>
  %out = sched.buffer "dgamma" : !sched.features<bf16>
  sched.sum_partials %p into %out compensated : !sched.partials<f32>, !sched.features<bf16>
}
