// RUN: normc-opt %s --convert-sched-to-kern | FileCheck %s

// A cluster of 4 blocks per row: each block keeps its slice of the row
// (here in registers: 8192 features of 1024 threads, one vector each) and
// sums it as a block does; then thread 0 of each block writes the block's
// total to its slot, a cluster barrier makes every slot visible, each
// thread adds the 4 slots in rank order, and a second cluster barrier
// keeps a block from writing its slot again (or ending) while another
// still reads it.
// CHECK-LABEL: kern.kernel @cluster d(32768)
// CHECK:         %[[SCRATCH:.*]] = kern.shared_scratch warps(32) : !sched.scratch<f32>
// CHECK-NEXT:    %[[SLOT:.*]] = kern.shared_cluster_slot : !sched.scratch<f32>
// CHECK-NEXT:    kern.for_row_groups {
// CHECK-NEXT:      %[[ROW:.*]] = kern.alloc_row vectors(1) : !sched.kept<bf16>
// CHECK:           %[[SUM:.*]] = kern.scratch_sum %[[SCRATCH]]
// CHECK-NEXT:      kern.barrier
// CHECK-NEXT:      kern.cluster_write %[[SUM]], %[[SLOT]] : f32, !sched.scratch<f32>
// CHECK-NEXT:      kern.cluster_barrier
// CHECK-NEXT:      %[[TOTAL:.*]] = kern.cluster_sum %[[SLOT]] : !sched.scratch<f32> -> f32
// CHECK-NEXT:      kern.cluster_barrier
// CHECK-NEXT:      %[[RSTD:.*]] = math.rsqrt %[[TOTAL]] : f32
// CHECK-NEXT:      kern.for_chunks unrolled(1) {
// CHECK-NEXT:        kern.read_kept %[[ROW]]
sched.kernel @cluster d(32768) accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 4, rows_per_block = 1, threads_per_row = 1024, vector_width = 8, row_storage = registers>) {
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
