// RUN: normc-translate %s --split-input-file --verify-diagnostics | FileCheck %s

// The emitter prints offsets from the layout kern-allocate-shared wrote: a
// region a kept row, each after the one before and 16-byte aligned.
// CHECK-LABEL: NORMC_KERNEL(256, two_regions)
// CHECK:         NORMC_DYNAMIC_SHARED(shared_rows);
// CHECK:         const int region_0 = 0;
// CHECK-NEXT:    float *v0 = reinterpret_cast<float *>(shared_rows + region_0)
// CHECK-NEXT:    const int region_1 = region_0 + (4 * pitch + 15) / 16 * 16;
// CHECK-NEXT:    __nv_bfloat16 *v1 = reinterpret_cast<__nv_bfloat16 *>(shared_rows + region_1)
kern.kernel @two_regions accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) shared(#kern.shared_layout<[<rows = 1, bytes = 4, vector_width = 4>, <rows = 1, bytes = 2, vector_width = 4>]>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %k:2 = kern.shared_rows region(0) : !sched.kept<f32>, !sched.kept<bf16>
  kern.for_row_groups {
  }
}

// -----

// expected-error @+1 {{is a row-level kernel; run convert-sched-to-kern}}
sched.kernel @row_level accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
}

// -----

// expected-error @+1 {{keeps values in dynamic shared memory that has no layout; run kern-allocate-shared}}
kern.kernel @no_layout accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %k = kern.shared_rows : !sched.kept<f32>
  kern.for_row_groups {
  }
}
