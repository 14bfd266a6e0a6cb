// Rows staged in shared memory straight from a buffer are copied there
// asynchronously; the wait goes before the first use of the row.
// RUN: normc-opt %s --split-input-file --kern-async-copies | FileCheck %s
// Running it again changes nothing.
// RUN: normc-opt %s --split-input-file --kern-async-copies --kern-async-copies | FileCheck %s

// CHECK-LABEL: kern.kernel @staged
// CHECK:       kern.for_row_groups {
// CHECK-NEXT:    kern.for_chunks {
// CHECK-NEXT:      kern.async_keep %[[X:.*]], %[[K:.*]] : !sched.rows<bf16>, !sched.kept<bf16>
// CHECK-NEXT:    }
// CHECK-NEXT:    sched.feature_count
// CHECK-NEXT:    kern.accumulator
// CHECK-NEXT:    kern.async_wait
// CHECK-NEXT:    kern.for_chunks {
// CHECK-NEXT:      kern.read_kept %[[K]]
// CHECK-NOT:   kern.async_wait
kern.kernel @staged d(65536) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 1024, vector_width = 8, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<bf16>
  %y = sched.buffer "y" : !sched.rows<bf16>
  %k = kern.shared_rows : !sched.kept<bf16>
  kern.for_row_groups {
    kern.for_chunks {
      %c = kern.load_chunk %x : !sched.rows<bf16> -> !sched.chunk<bf16>
      kern.keep %c, %k : !sched.chunk<bf16>, !sched.kept<bf16>
    }
    %n = sched.feature_count fraction 1.0
    %a = kern.accumulator compensated : !sched.accumulator<f32>
    kern.for_chunks {
      %c = kern.read_kept %k : !sched.kept<bf16> -> !sched.chunk<bf16>
      kern.accumulate %a, %c count %n : !sched.accumulator<f32>, !sched.chunk<bf16> {
      ^bb0(%v: bf16):
        %f = arith.extf %v : bf16 to f32
        kern.yield %f : f32
      }
    }
    kern.for_chunks {
      %c = kern.read_kept %k : !sched.kept<bf16> -> !sched.chunk<bf16>
      kern.store_chunk %c, %y : !sched.chunk<bf16>, !sched.rows<bf16>
    }
  }
}

// -----

// A kept value computed from the load (h = x + r), a loaded chunk used
// twice, and rows kept in registers stay as they are.
// CHECK-LABEL: kern.kernel @computed
// CHECK-NOT:   kern.async
kern.kernel @computed d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %h = sched.buffer "h" : !sched.rows<f32>
  %k = kern.shared_rows : !sched.kept<f32>
  kern.for_row_groups {
    kern.for_chunks {
      %c = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      %s = kern.map_chunk %c, %c : (!sched.chunk<f32>, !sched.chunk<f32>) -> !sched.chunk<f32> {
      ^bb0(%p: f32, %q: f32):
        %t = arith.addf %p, %q : f32
        kern.yield %t : f32
      }
      kern.keep %s, %k : !sched.chunk<f32>, !sched.kept<f32>
      kern.store_chunk %c, %h : !sched.chunk<f32>, !sched.rows<f32>
    }
  }
}

// -----

// CHECK-LABEL: kern.kernel @in_registers
// CHECK-NOT:   kern.async
kern.kernel @in_registers d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  kern.for_row_groups {
    %k = kern.alloc_row vectors(4) : !sched.kept<f32>
    kern.for_chunks unrolled(4) {
      %c = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      kern.keep %c, %k : !sched.chunk<f32>, !sched.kept<f32>
    }
  }
}

// -----

// Two rows in flight: one wait, before the first pass that reads either;
// a row never read back is waited for at the end of the row.
// CHECK-LABEL: kern.kernel @two_rows
// CHECK:         kern.async_keep %{{.*}}, %[[K0:[^ ]*]]
// CHECK:         kern.async_keep %{{.*}}, %[[K1:[^ ]*]]
// CHECK-NEXT:    }
// CHECK-NEXT:    kern.async_wait
// CHECK-NEXT:    kern.for_chunks {
// CHECK-NEXT:      kern.read_kept %[[K1]]
// CHECK:         kern.async_keep
// CHECK-NEXT:    }
// CHECK-NEXT:    kern.async_wait
// CHECK-NEXT:  }
kern.kernel @two_rows d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %r = sched.buffer "residual" : !sched.rows<f32>
  %y = sched.buffer "y" : !sched.rows<f32>
  %k:3 = kern.shared_rows : !sched.kept<f32>, !sched.kept<f32>, !sched.kept<f32>
  kern.for_row_groups {
    kern.for_chunks {
      %a = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      kern.keep %a, %k#0 : !sched.chunk<f32>, !sched.kept<f32>
      %b = kern.load_chunk %r : !sched.rows<f32> -> !sched.chunk<f32>
      kern.keep %b, %k#1 : !sched.chunk<f32>, !sched.kept<f32>
    }
    kern.for_chunks {
      %c = kern.read_kept %k#1 : !sched.kept<f32> -> !sched.chunk<f32>
      kern.store_chunk %c, %y : !sched.chunk<f32>, !sched.rows<f32>
    }
    kern.for_chunks {
      %a = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      kern.keep %a, %k#2 : !sched.chunk<f32>, !sched.kept<f32>
    }
  }
}
