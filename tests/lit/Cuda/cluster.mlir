// A cluster kernel: the cluster's size in the kernel (__cluster_dims__ on
// the GPU), block r's slice of each row, the rows the cluster goes through
// together, the kept slice in shared memory indexed from the slice's start
// (copied there asynchronously), and the exchange of block totals through distributed shared memory
// between two cluster barriers.
// RUN: %normc compile %s --emit=cuda | FileCheck %s
// CHECK-LABEL: NORMC_CLUSTER_KERNEL(256, 2, cluster)(const float *x, long long x_stride, float *y, long long y_stride, long long rows, int)
// CHECK:       const int slice_begin = normc_cluster_rank() * 3072;
// CHECK-NEXT:  const int slice_end = min(d, slice_begin + 3072);
// CHECK:       const int pitch = 3072; // the slice
// CHECK:       NORMC_STATIC_SHARED(float, cluster_slot, 1);
// CHECK:       for (long long row_group = (long long)blockIdx.x / 2; row_group < rows;
// CHECK-NEXT:       row_group += (long long)gridDim.x / 2) {
// CHECK:       for (int c = slice_begin + lane_in_row * 4; c < slice_end; c += 1024) {
// CHECK-NEXT:    normc_async_load<4>([[K:v[0-9]+]] + (c - slice_begin), x_row, c, limit, x_vec);
// CHECK:       normc_async_wait();
// CHECK:       if (threadIdx.x == 0)
// CHECK-NEXT:    cluster_slot[0] = [[S:s[0-9]+]];
// CHECK-NEXT:  normc_cluster_sync();
// CHECK-NEXT:  float [[T:s[0-9]+]] = *normc_cluster_shared(cluster_slot, 0);
// CHECK-NEXT:  #pragma unroll
// CHECK-NEXT:  for (int r = 1; r < 2; ++r)
// CHECK-NEXT:    [[T]] += *normc_cluster_shared(cluster_slot, r);
// CHECK-NEXT:  normc_cluster_sync();
// CHECK:       ([[K]] + (c - slice_begin))[e]
sched.kernel @cluster d(5000) accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 2, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %y = sched.buffer "y" : !sched.rows<f32>
  %row = sched.load_row %x : !sched.rows<f32>
  %k = sched.feature_count fraction 1.0
  %sq = sched.reduce %row count %k : (!sched.row<f32>) -> f32 {
  ^bb0(%h: f32):
    %p = arith.mulf %h, %h : f32
    sched.yield %p : f32
  }
  %r = math.rsqrt %sq : f32
  %out = sched.map %row : (!sched.row<f32>) -> !sched.row<f32> {
  ^bb0(%h: f32):
    %n = arith.mulf %h, %r : f32
    sched.yield %n : f32
  }
  sched.store_row %out, %y : !sched.row<f32>, !sched.rows<f32>
}
