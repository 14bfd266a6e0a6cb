// Where the row lives between passes: shared memory or re-read from global.
// RUN: %normc compile %s --emit=cuda | FileCheck %s --check-prefix=SHARED
// RUN: sed -e 's/row_storage = shared/row_storage = global/' %s > %t.mlir
// RUN: %normc compile %t.mlir --emit=cuda | FileCheck %s --check-prefix=GLOBAL

// SHARED: dynamic shared memory = 1 region(s) of rows_per_block * round_up(d, vector_width) elements
// SHARED: NORMC_DYNAMIC_SHARED(shared_rows);
// SHARED: const int pitch = (d + 3) / 4 * 4;
// SHARED: const int region_0 = 0;
// SHARED: float *[[H:v[0-9]+]] = reinterpret_cast<float *>(shared_rows + region_0) + row_in_block * pitch;
// SHARED: for (int c = lane_in_row * 4; c < d; c += 1024) {
// SHARED:   [[H]][c + e] =
// SHARED: normc_store<4>(residual_out_row, ([[H]] + c), c, limit, residual_out_vec);
// SHARED: const float t = NORMC_CVT(float, ([[H]] + c)[e]);

// After h is stored, every later pass reads it back from residual_out.
// GLOBAL-LABEL: NORMC_KERNEL(256, fused)
// GLOBAL-NOT: NORMC_DYNAMIC_SHARED(shared_rows)
// GLOBAL: // store residual_out
// GLOBAL: normc_load<4>([[X:c[0-9]+]], x_row, c, limit, x_vec);
// GLOBAL: normc_load<4>([[R:c[0-9]+]], residual_row, c, limit, residual_vec);
// GLOBAL: = NORMC_CVT(float, NORMC_CVT(float, [[X]][e]) + NORMC_CVT(float, [[R]][e]));
// GLOBAL: // sum of squares
// GLOBAL: normc_load<4>({{c[0-9]+}}, residual_out_row, c, limit, residual_out_vec);
// GLOBAL: // store y
// GLOBAL: normc_load<4>({{c[0-9]+}}, residual_out_row, c, limit, residual_out_vec);
sched.kernel @fused accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %res = sched.buffer "residual" : !sched.rows<f32>
  %y = sched.buffer "y" : !sched.rows<f32>
  %hout = sched.buffer "residual_out" : !sched.rows<f32>
  %a = sched.load_row %x : !sched.rows<f32>
  %b = sched.load_row %res : !sched.rows<f32>
  %h = sched.add_rows %a, %b : !sched.row<f32>
  sched.store_row %h, %hout : !sched.row<f32>, !sched.rows<f32>
  %k = sched.feature_count fraction 1.0
  %sq = sched.reduce sum_squares %h, %k : !sched.row<f32> -> f32
  %r = math.rsqrt %sq : f32
  %out = sched.affine_row %h rstd %r : (!sched.row<f32>, f32) -> !sched.row<f32>
  sched.store_row %out, %y : !sched.row<f32>, !sched.rows<f32>
}
