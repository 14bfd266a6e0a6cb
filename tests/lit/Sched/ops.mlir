// RUN: normc-opt %s --split-input-file | normc-opt --split-input-file | FileCheck %s
// RUN: normc-opt %s --split-input-file --mlir-print-op-generic | normc-opt --split-input-file | FileCheck %s

// Row level: generic maps and reductions over rows and per-feature buffers.
// CHECK-LABEL: sched.kernel @rms d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 8, row_storage = registers>)
// CHECK:         %[[X:.*]] = sched.buffer "x" : !sched.rows<bf16>
// CHECK:         %[[G:.*]] = sched.buffer "gamma" : !sched.features<bf16>
// CHECK:         %[[S:.*]] = sched.buffer "rstd" : !sched.stats<f32>
// CHECK:         %[[ROW:.*]] = sched.load_row %[[X]] : !sched.rows<bf16>
// CHECK:         %[[K:.*]] = sched.feature_count fraction 5.000000e-01
// CHECK:         %[[SUM:.*]] = sched.reduce %[[ROW]] count %[[K]] : (!sched.row<bf16>) -> f32 {
// CHECK:         %[[DOT:.*]] = sched.reduce %[[ROW]], %[[G]] count %[[K]] : (!sched.row<bf16>, !sched.features<bf16>) -> f32 {
// CHECK:         %[[Y:.*]] = sched.map %[[ROW]], %[[G]] : (!sched.row<bf16>, !sched.features<bf16>) -> !sched.row<bf16> {
// CHECK:         sched.store_row %[[Y]], %[[X]] : !sched.row<bf16>, !sched.rows<bf16>
// CHECK:         sched.store_stat %[[DOT]], %[[S]] : f32, !sched.stats<f32>
sched.kernel @rms d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 8, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<bf16>
  %g = sched.buffer "gamma" : !sched.features<bf16>
  %st = sched.buffer "rstd" : !sched.stats<f32>
  %row = sched.load_row %x : !sched.rows<bf16>
  %k = sched.feature_count fraction 0.5
  %sum = sched.reduce %row count %k : (!sched.row<bf16>) -> f32 {
  ^bb0(%h: bf16):
    %f = arith.extf %h : bf16 to f32
    sched.yield %f : f32
  }
  %dot = sched.reduce %row, %g count %k : (!sched.row<bf16>, !sched.features<bf16>) -> f32 {
  ^bb0(%h: bf16, %w: bf16):
    %a = arith.extf %h : bf16 to f32
    %b = arith.extf %w : bf16 to f32
    %p = arith.mulf %a, %b : f32
    sched.yield %p : f32
  }
  %y = sched.map %row, %g : (!sched.row<bf16>, !sched.features<bf16>) -> !sched.row<bf16> {
  ^bb0(%h: bf16, %w: bf16):
    %a = arith.extf %h : bf16 to f32
    %m = arith.mulf %a, %sum : f32
    %t = arith.truncf %m : f32 to bf16
    sched.yield %t : bf16
  }
  sched.store_row %y, %x : !sched.row<bf16>, !sched.rows<bf16>
  sched.store_stat %dot, %st : f32, !sched.stats<f32>
}

// -----
// A kernel whose schedule is not chosen yet, with d at run time, placed
// second among its module's kernels.
// CHECK-LABEL: sched.kernel @unscheduled accumulate(f64) attributes {launch_order = 1 : i64} {
// CHECK:         sched.map %{{.*}}, %{{.*}} : (!sched.row<f16>, !sched.row<f16>) -> !sched.row<f16>
sched.kernel @unscheduled accumulate(f64) attributes {launch_order = 1} {
  %x = sched.buffer "x" : !sched.rows<f16>
  %r = sched.buffer "residual" : !sched.rows<f16>
  %a = sched.load_row %x : !sched.rows<f16>
  %b = sched.load_row %r : !sched.rows<f16>
  %h = sched.map %a, %b : (!sched.row<f16>, !sched.row<f16>) -> !sched.row<f16> {
  ^bb0(%p: f16, %q: f16):
    %p64 = arith.extf %p : f16 to f64
    %q64 = arith.extf %q : f16 to f64
    %s = arith.addf %p64, %q64 : f64
    %t = arith.truncf %s : f64 to f16
    sched.yield %t : f16
  }
  sched.store_row %h, %r : !sched.row<f16>, !sched.rows<f16>
}

// -----
// Per-group values: row level, and the kernel level's group table.
// CHECK-LABEL: sched.kernel @groups d(256) accumulate(f32)
// CHECK:         sched.group_max %{{.*}} group(128) : (!sched.row<f32>) -> !sched.row<f32>
// CHECK:         sched.store_groups %{{.*}}, %{{.*}} group(128) : !sched.row<f32>, !sched.groups<f32>
sched.kernel @groups d(256) accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %s = sched.buffer "scale" : !sched.groups<f32>
  %row = sched.load_row %x : !sched.rows<f32>
  %a = sched.group_max %row group(128) : (!sched.row<f32>) -> !sched.row<f32> {
  ^bb0(%v: f32):
    %m = math.absf %v : f32
    sched.yield %m : f32
  }
  sched.store_groups %a, %s group(128) : !sched.row<f32>, !sched.groups<f32>
}
