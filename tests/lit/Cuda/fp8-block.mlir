// Block scales: the table after the kept rows, cleared by the chunk that
// starts each group, raised by normc_group_max (an atomic maximum) with the
// chunk's largest |y|, read back for the scale, and each group's scale
// stored by the chunk that starts it, into [rows, groups].
// RUN: %normc compile %s --emit=cuda | FileCheck %s
// CHECK-LABEL: NORMC_KERNEL(128, block)(const __nv_bfloat16 *x, long long x_stride, __nv_fp8_e4m3 *y, long long y_stride, float *scale, long long rows, int)
// CHECK:       const int groups = (d + 127) / 128; // groups of 128 features a row
// CHECK:       NORMC_DYNAMIC_SHARED(shared_rows);
// CHECK:       const int region_0 = 0;
// CHECK:       const int region_1 = region_0 + (2 * pitch + 15) / 16 * 16;
// CHECK:       float *[[T:v[0-9]+]] = reinterpret_cast<float *>(shared_rows + region_1) + row_in_block * groups;
// CHECK:       if (c < d && c % 128 == 0)
// CHECK-NEXT:    [[T]][c / 128] = 0.00000000e+00f;
// CHECK:       [[M:a[0-9]+]] = normc_max([[M]], {{s[0-9]+}});
// CHECK:       if (c < d)
// CHECK-NEXT:    normc_group_max([[T]] + c / 128, [[M]]);
// CHECK:       = c < d ? [[T]][c / 128] : 0.00000000e+00f;
// CHECK:       if (row < rows && c < d && c % 128 == 0)
// CHECK-NEXT:    scale[row * groups + c / 128] = {{c[0-9]+}}[0];
// CHECK:       normc_store<8>(y_row,
sched.kernel @block d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 8, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<bf16>
  %q = sched.buffer "y" : !sched.rows<f8E4M3FN>
  %sb = sched.buffer "scale" : !sched.groups<f32>
  %row = sched.load_row %x : !sched.rows<bf16>
  %k = sched.feature_count fraction 1.0
  %sq = sched.reduce %row count %k : (!sched.row<bf16>) -> f32 {
  ^bb0(%h: bf16):
    %f = arith.extf %h : bf16 to f32
    %p = arith.mulf %f, %f : f32
    sched.yield %p : f32
  }
  %y = sched.map %row recompute : (!sched.row<bf16>) -> !sched.row<f32> {
  ^bb0(%h: bf16):
    %f = arith.extf %h : bf16 to f32
    %n = arith.mulf %f, %sq : f32
    sched.yield %n : f32
  }
  %a = sched.group_max %y group(128) : (!sched.row<f32>) -> !sched.row<f32> {
  ^bb0(%v: f32):
    %m = math.absf %v : f32
    sched.yield %m : f32
  }
  %s = sched.map %a recompute : (!sched.row<f32>) -> !sched.row<f32> {
  ^bb0(%v: f32):
    %max = arith.constant 448.0 : f32
    %t = arith.divf %v, %max : f32
    sched.yield %t : f32
  }
  sched.store_groups %s, %sb group(128) : !sched.row<f32>, !sched.groups<f32>
  %out = sched.map %y, %s : (!sched.row<f32>, !sched.row<f32>) -> !sched.row<f8E4M3FN> {
  ^bb0(%v: f32, %w: f32):
    %d = arith.divf %v, %w : f32
    %t = arith.truncf %d : f32 to f8E4M3FN
    sched.yield %t : f8E4M3FN
  }
  sched.store_row %out, %q : !sched.row<f8E4M3FN>, !sched.rows<f8E4M3FN>
}
