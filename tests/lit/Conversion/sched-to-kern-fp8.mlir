// RUN: normc-opt %s --convert-sched-to-kern | FileCheck %s

// A max reduction: an uncompensated accumulator that keeps the largest
// term, warp shuffles and the cross-warp step that do the same. The
// recomputed y is not kept: each pass that reads it maps the kept x again.
// CHECK-LABEL: kern.kernel @amax d(4096)
// CHECK:         kern.for_row_groups {
// CHECK-NEXT:      %[[ROW:.*]] = kern.alloc_row vectors(4) : !sched.kept<bf16>
// CHECK-NOT:       kern.alloc_row
// CHECK:           kern.accumulator compensated : !sched.accumulator<f32>
// CHECK:           %[[ACC:.*]] = kern.accumulator combine(max) : !sched.accumulator<f32>
// CHECK-NEXT:      kern.for_chunks unrolled(4) {
// CHECK-NEXT:        %[[R:.*]] = kern.read_kept %[[ROW]]
// CHECK-NEXT:        %[[Y:.*]] = kern.map_chunk %[[R]]
// CHECK:             kern.accumulate %[[ACC]], %[[Y]] count
// CHECK:           %[[PART:.*]] = kern.read_accumulator %[[ACC]]
// CHECK-NEXT:      %[[WARP:.*]] = kern.warp_sum %[[PART]] lanes(32) combine(max) : f32
// CHECK-NEXT:      kern.scratch_write %[[WARP]]
// CHECK-NEXT:      kern.barrier
// CHECK-NEXT:      %[[MAX:.*]] = kern.scratch_sum %{{.*}} combine(max)
// CHECK-NEXT:      kern.barrier
// CHECK:           kern.for_chunks unrolled(4) {
// CHECK-NEXT:        %[[R2:.*]] = kern.read_kept %[[ROW]]
// CHECK-NEXT:        %[[Y2:.*]] = kern.map_chunk %[[R2]]
// CHECK:             %[[Q:.*]] = kern.map_chunk %[[Y2]]
// CHECK:               arith.divf %{{.*}}, %[[MAX]] : f32
// CHECK:             kern.store_chunk %[[Q]]
sched.kernel @amax d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 8, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<bf16>
  %q = sched.buffer "y" : !sched.rows<f8E4M3FN>
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
  %a = sched.reduce %y count %k combine(max) : (!sched.row<f32>) -> f32 {
  ^bb0(%v: f32):
    %m = math.absf %v : f32
    sched.yield %m : f32
  }
  %out = sched.map %y : (!sched.row<f32>) -> !sched.row<f8E4M3FN> {
  ^bb0(%v: f32):
    %d = arith.divf %v, %a : f32
    %t = arith.truncf %d : f32 to f8E4M3FN
    sched.yield %t : f8E4M3FN
  }
  sched.store_row %out, %q : !sched.row<f8E4M3FN>, !sched.rows<f8E4M3FN>
}
