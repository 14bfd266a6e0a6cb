// RUN: normc-opt %s --convert-sched-to-kern --split-input-file | FileCheck %s

// Registers: the row is kept once and read back in each later pass; a
// reduction is an accumulator, warp shuffles, and across the 4 warps the
// scratch between two barriers.
// CHECK-LABEL: kern.kernel @registers d(4096)
// CHECK:         %[[X:.*]] = sched.buffer "x"
// CHECK:         %[[G:.*]] = sched.buffer "gamma"
// CHECK:         %[[Y:.*]] = sched.buffer "y"
// CHECK:         %[[SCRATCH:.*]] = kern.shared_scratch warps(4) : !sched.scratch<f32>
// CHECK:         kern.for_row_groups {
// CHECK-NEXT:      %[[ROW:.*]] = kern.alloc_row vectors(4) : !sched.kept<bf16>
// CHECK-NEXT:      kern.for_chunks unrolled(4) {
// CHECK-NEXT:        %[[C:.*]] = kern.load_chunk %[[X]] : !sched.rows<bf16> -> !sched.chunk<bf16>
// CHECK-NEXT:        kern.keep %[[C]], %[[ROW]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[K:.*]] = sched.feature_count
// CHECK-NEXT:      %[[ACC:.*]] = kern.accumulator compensated : !sched.accumulator<f32>
// CHECK-NEXT:      kern.for_chunks unrolled(4) {
// CHECK-NEXT:        %[[R:.*]] = kern.read_kept %[[ROW]]
// CHECK-NEXT:        kern.accumulate %[[ACC]], %[[R]] count %[[K]]
// CHECK:           %[[PART:.*]] = kern.read_accumulator %[[ACC]]
// CHECK-NEXT:      %[[WARP:.*]] = kern.warp_sum %[[PART]] lanes(32) : f32
// CHECK-NEXT:      kern.scratch_write %[[WARP]], %[[SCRATCH]]
// CHECK-NEXT:      kern.barrier
// CHECK-NEXT:      %[[SUM:.*]] = kern.scratch_sum %[[SCRATCH]]
// CHECK-NEXT:      kern.barrier
// CHECK-NEXT:      %[[RSTD:.*]] = math.rsqrt %[[SUM]] : f32
// CHECK-NEXT:      kern.for_chunks unrolled(4) {
// CHECK-NEXT:        %[[R:.*]] = kern.read_kept %[[ROW]]
// CHECK-NEXT:        %[[GC:.*]] = kern.load_chunk %[[G]] : !sched.features<bf16> -> !sched.chunk<bf16>
// CHECK-NEXT:        %[[OUT:.*]] = kern.map_chunk %[[R]], %[[GC]]
// CHECK:               arith.mulf %{{.*}}, %[[RSTD]] : f32
// CHECK:             kern.store_chunk %[[OUT]], %[[Y]]
// CHECK-NOT:     sched.load_row
// CHECK-NOT:     sched.map {{.*}}!sched.row
sched.kernel @registers d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 8, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<bf16>
  %g = sched.buffer "gamma" : !sched.features<bf16>
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
  %out = sched.map %row, %g : (!sched.row<bf16>, !sched.features<bf16>) -> !sched.row<bf16> {
  ^bb0(%h: bf16, %w: bf16):
    %f = arith.extf %h : bf16 to f32
    %n = arith.mulf %f, %r : f32
    %gf = arith.extf %w : bf16 to f32
    %t = arith.mulf %n, %gf : f32
    %o = arith.truncf %t : f32 to bf16
    sched.yield %o : bf16
  }
  sched.store_row %out, %y : !sched.row<bf16>, !sched.rows<bf16>
}

// -----

// Shared memory: a region of the layout per kept row, strided chunk loops.
// h = x + r is computed once, kept, stored and read back; x and r, read
// once, are not kept.
// CHECK-LABEL: kern.kernel @shared
// CHECK:         %[[HOUT:.*]] = sched.buffer "residual_out"
// CHECK:         %[[SLOT:.*]] = kern.shared_rows : !sched.kept<f32>
// CHECK:         kern.for_row_groups {
// CHECK-NEXT:      kern.for_chunks {
// CHECK-NEXT:        %[[A:.*]] = kern.load_chunk %{{.*}} : !sched.rows<f32>
// CHECK-NEXT:        %[[B:.*]] = kern.load_chunk %{{.*}} : !sched.rows<f32>
// CHECK-NEXT:        %[[H:.*]] = kern.map_chunk %[[A]], %[[B]]
// CHECK:             kern.keep %[[H]], %[[SLOT]]
// CHECK:           kern.for_chunks {
// CHECK-NEXT:        %[[H:.*]] = kern.read_kept %[[SLOT]]
// CHECK-NEXT:        kern.store_chunk %[[H]], %[[HOUT]]
// A row of 32 threads needs no scratch and no barrier.
// CHECK-NOT:     kern.barrier
sched.kernel @shared accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 4, threads_per_row = 32, vector_width = 4, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %res = sched.buffer "residual" : !sched.rows<f32>
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
}

// -----

// Global: nothing is kept. h is recomputed from x and r until it is stored,
// then every later pass re-reads it from residual_out.
// CHECK-LABEL: kern.kernel @global
// CHECK-NOT:     kern.shared_rows
// CHECK:         kern.for_row_groups {
// CHECK-NEXT:      kern.for_chunks {
// CHECK-NEXT:        kern.load_chunk %{{.*}} : !sched.rows<f32>
// CHECK-NEXT:        kern.load_chunk %{{.*}} : !sched.rows<f32>
// CHECK-NEXT:        kern.map_chunk
// CHECK:             kern.store_chunk %{{.*}}, %[[HOUT:.*]] : !sched.chunk<f32>, !sched.rows<f32>
// CHECK:           kern.for_chunks {
// CHECK-NEXT:        %[[H:.*]] = kern.load_chunk %[[HOUT]]
// CHECK-NEXT:        kern.accumulate %{{.*}}, %[[H]]
// CHECK-NOT:     kern.alloc_row
sched.kernel @global accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 4, threads_per_row = 32, vector_width = 4, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %res = sched.buffer "residual" : !sched.rows<f32>
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
}

// -----

// What a backward pass needs: the reduction of a product of two rows (a
// per-row dot product of dy and x), here with f64 accumulation, which is not
// compensated.
// CHECK-LABEL: kern.kernel @dot
// CHECK:         %[[ACC:.*]] = kern.accumulator : !sched.accumulator<f64>
// CHECK-NEXT:    kern.for_chunks {
// CHECK-NEXT:      %[[X:.*]] = kern.load_chunk %{{.*}} : !sched.rows<bf16>
// CHECK-NEXT:      %[[DY:.*]] = kern.load_chunk %{{.*}} : !sched.rows<bf16>
// CHECK-NEXT:      kern.accumulate %[[ACC]], %[[X]], %[[DY]] count %{{.*}} : !sched.accumulator<f64>, !sched.chunk<bf16>, !sched.chunk<bf16> {
// CHECK-NEXT:      ^bb0(%[[A:.*]]: bf16, %[[B:.*]]: bf16):
// CHECK:             %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:        kern.yield %[[P]] : f64
// CHECK:         kern.warp_sum %{{.*}} lanes(8) : f64
// CHECK:         sched.store_stat
sched.kernel @dot accumulate(f64) schedule(#sched.schedule<row_group, rows_per_block = 4, threads_per_row = 8, vector_width = 8, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<bf16>
  %dy = sched.buffer "dy" : !sched.rows<bf16>
  %out = sched.buffer "dot" : !sched.stats<f64>
  %a = sched.load_row %x : !sched.rows<bf16>
  %b = sched.load_row %dy : !sched.rows<bf16>
  %k = sched.feature_count fraction 1.0
  %s = sched.reduce %a, %b count %k : (!sched.row<bf16>, !sched.row<bf16>) -> f64 {
  ^bb0(%p: bf16, %q: bf16):
    %p64 = arith.extf %p : bf16 to f64
    %q64 = arith.extf %q : bf16 to f64
    %m = arith.mulf %p64, %q64 : f64
    sched.yield %m : f64
  }
  sched.store_stat %s, %out : f64, !sched.stats<f64>
}
