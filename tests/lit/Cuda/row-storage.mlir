// Where the row lives between passes: shared memory or re-read from global.
// RUN: %normc compile %s --emit=cuda | FileCheck %s --check-prefix=SHARED
// RUN: sed -e 's/row_storage = shared/row_storage = global/' %s > %t.mlir
// RUN: %normc compile %t.mlir --emit=cuda | FileCheck %s --check-prefix=GLOBAL

// kern.shared_rows prints the layout: one region per kept row.
// SHARED: dynamic shared memory = 1 region(s) of rows_per_block * round_up(d, vector_width) elements
// SHARED: NORMC_DYNAMIC_SHARED(shared_rows);
// SHARED: const int pitch = (d + 3) / 4 * 4;
// SHARED: const int region_0 = 0;
// SHARED: float *[[H:v[0-9]+]] = reinterpret_cast<float *>(shared_rows + region_0) + row_in_block * pitch;
// SHARED: for (int c = lane_in_row * 4; c < d; c += 1024) {
// SHARED:   [[H]][c + e] =
// SHARED: normc_store<4>(residual_out_row, ([[H]] + c), c, limit, residual_out_vec);
// SHARED: = ([[H]] + c)[e] * ([[H]] + c)[e];

// After h is stored, every later pass reads it back from residual_out.
// GLOBAL-LABEL: NORMC_KERNEL(256, fused)
// GLOBAL-NOT: NORMC_DYNAMIC_SHARED(shared_rows)
// GLOBAL: normc_load<4>([[X:c[0-9]+]], x_row, c, limit, x_vec);
// GLOBAL: normc_load<4>([[R:c[0-9]+]], residual_row, c, limit, residual_vec);
// GLOBAL: = [[X]][e] + [[R]][e];
// GLOBAL: normc_store<4>(residual_out_row,
// GLOBAL: normc_load<4>({{c[0-9]+}}, residual_out_row, c, limit, residual_out_vec);
// GLOBAL: normc_add_compensated(
// GLOBAL: normc_load<4>({{c[0-9]+}}, residual_out_row, c, limit, residual_out_vec);
// GLOBAL: normc_store<4>(y_row,
sched.kernel @fused accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %res = sched.buffer "residual" : !sched.rows<f32>
  %y = sched.buffer "y" : !sched.rows<f32>
  %hout = sched.buffer "residual_out" : !sched.rows<f32>
  %a = sched.load_row %x : !sched.rows<f32>
  %b = sched.load_row %res : !sched.rows<f32>
  %h = sched.map %a, %b : (!sched.row<f32>, !sched.row<f32>) -> !sched.row<f32> {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    sched.yield %s : f32
  }
  sched.store_row %h, %hout : !sched.row<f32>, !sched.rows<f32>
  %k = sched.feature_count fraction 1.0
  %sq = sched.reduce %h count %k : (!sched.row<f32>) -> f32 {
  ^bb0(%v: f32):
    %p = arith.mulf %v, %v : f32
    sched.yield %p : f32
  }
  %r = math.rsqrt %sq : f32
  %out = sched.map %h : (!sched.row<f32>) -> !sched.row<f32> {
  ^bb0(%v: f32):
    %n = arith.mulf %v, %r : f32
    sched.yield %n : f32
  }
  sched.store_row %out, %y : !sched.row<f32>, !sched.rows<f32>
}
