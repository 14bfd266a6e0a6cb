// The CUDA comes out of the IR: changing the schedule attribute in the input
// changes the emitted accesses, loops and block size.
// RUN: %normc compile %s --emit=cuda | FileCheck %s --check-prefix=W8
// RUN: sed -e 's/vector_width = 8/vector_width = 2/' -e 's/threads_per_row = 128/threads_per_row = 256/' %s > %t.mlir
// RUN: %normc compile %t.mlir --emit=cuda | FileCheck %s --check-prefix=W2

// W8: NORMC_KERNEL(128, rms)
// W8: alignas(16) __nv_bfloat16 [[ROW:v[0-9]+]][4][8];
// W8: const int c = (i * 128 + lane_in_row) * 8;
// W8: normc_load<8>(
// W8: normc_store<8>(y_row,

// W2: NORMC_KERNEL(256, rms)
// W2: const bool x_vec = normc_aligned(x_row, 4);
// W2: alignas(16) __nv_bfloat16 [[ROW:v[0-9]+]][8][2];
// W2: const int c = (i * 256 + lane_in_row) * 2;
// W2: normc_load<2>(
// W2: reduce_scratch[row_in_block * 8 + (lane_in_row >> 5)]
// W2: normc_store<2>(y_row,
sched.kernel @rms d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 8, row_storage = registers>) {
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
    %o = arith.truncf %n : f32 to bf16
    sched.yield %o : bf16
  }
  sched.store_row %out, %y : !sched.row<bf16>, !sched.rows<bf16>
}
