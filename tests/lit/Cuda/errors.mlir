// RUN: bash -c '%normc compile %s --emit=cuda; test $? -eq 1' 2>&1 | FileCheck %s

// CHECK: errors.mlir:[[# @LINE + 1]]:1: error: 'sched.kernel' op invalid schedule: row_storage = registers would keep 256 vectors per thread (at most 32); use more threads per row or another row_storage
sched.kernel @too_wide_for_registers d(65536) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<f32>
}
