// A row staged in shared memory straight from x: each chunk is copied
// asynchronously (cp.async on sm_80 and later, in the support library),
// and each thread waits for its copies before the first pass reads them.
// RUN: %normc compile %s --emit=cuda | FileCheck %s
// CHECK-LABEL: NORMC_KERNEL(1024, staged)
// CHECK:       for (int c = lane_in_row * 8; c < d; c += 8192) {
// CHECK-NEXT:    normc_async_load<8>([[K:v[0-9]+]] + c, x_row, c, limit, x_vec);
// CHECK-NEXT:  }
// CHECK-NOT:   ([[K]] + c)
// CHECK:       normc_async_wait();
// CHECK-NEXT:  for (int c = lane_in_row * 8; c < d; c += 8192) {
// CHECK:         ([[K]] + c)[e]
sched.kernel @staged accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 1024, vector_width = 8, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<bf16>
  %y = sched.buffer "y" : !sched.rows<bf16>
  %row = sched.load_row %x : !sched.rows<bf16>
  %k = sched.feature_count fraction 1.0
  %sq = sched.reduce %row count %k : (!sched.row<bf16>) -> f32 {
  ^bb0(%h: bf16):
    %f = arith.extf %h : bf16 to f32
    %p = arith.mulf %f, %f : f32
    sched.yield %p : f32
  }
  %r = math.rsqrt %sq : f32
  %out = sched.map %row : (!sched.row<bf16>) -> !sched.row<bf16> {
  ^bb0(%h: bf16):
    %f = arith.extf %h : bf16 to f32
    %n = arith.mulf %f, %r : f32
    %t = arith.truncf %n : f32 to bf16
    sched.yield %t : bf16
  }
  sched.store_row %out, %y : !sched.row<bf16>, !sched.rows<bf16>
}
