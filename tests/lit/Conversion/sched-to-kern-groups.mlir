// RUN: normc-opt %s --convert-sched-to-kern | FileCheck %s

// Block scales: a table of a slot per group in dynamic shared memory after
// the kept rows; per row, once the previous row's readers are done (here
// the reduction's last barrier), one pass clears the slots, one raises each
// chunk's slot to the chunk's largest |y|, and once every chunk has, the
// passes that need the group amax read it. The scale is recomputed from
// the table in the pass that stores it and in the one that divides by it.
// CHECK-LABEL: kern.kernel @block d(4096)
// CHECK:         %[[ROWS:.*]] = kern.shared_rows : !sched.kept<bf16>
// CHECK-NEXT:    %[[T:.*]] = kern.shared_groups group(128) : !sched.group_table<f32>
// CHECK:         kern.for_row_groups {
// CHECK:           kern.scratch_sum
// CHECK-NEXT:      kern.barrier
// CHECK-NEXT:      kern.for_chunks {
// CHECK-NEXT:        kern.clear_group %[[T]]
// CHECK-NEXT:      }
// CHECK-NEXT:      kern.barrier
// CHECK-NEXT:      kern.for_chunks {
// CHECK-NEXT:        %[[R:.*]] = kern.read_kept %[[ROWS]]
// CHECK-NEXT:        %[[Y:.*]] = kern.map_chunk %[[R]]
// CHECK:             kern.accumulate_group_max %[[T]], %[[Y]]
// CHECK:               math.absf
// CHECK:           kern.barrier
// CHECK-NEXT:      kern.for_chunks {
// CHECK-NEXT:        %[[A:.*]] = kern.read_group %[[T]] : !sched.group_table<f32> -> !sched.chunk<f32>
// CHECK-NEXT:        %[[S:.*]] = kern.map_chunk %[[A]]
// CHECK:             kern.store_group %[[S]], %{{.*}} group(128)
// CHECK:           kern.for_chunks {
// CHECK:             %[[A2:.*]] = kern.read_group %[[T]]
// CHECK-NEXT:        %[[S2:.*]] = kern.map_chunk %[[A2]]
// CHECK:             %[[Q:.*]] = kern.map_chunk %{{.*}}, %[[S2]]
// CHECK:             kern.store_chunk %[[Q]]
// CHECK-NOT:     kern.barrier
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
