// Options given to the pass are taken as they are, completed by the
// heuristic, and checked like any schedule.
// RUN: normc-opt %s --sched-assign-schedule="threads-per-row=64 vector-width=2 row-storage=shared" | FileCheck %s --check-prefix=GIVEN
// RUN: not normc-opt %s --sched-assign-schedule="row-storage=disk" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not normc-opt %s --sched-assign-schedule="threads-per-row=48" 2>&1 | FileCheck %s --check-prefix=ILLEGAL
// RUN: not normc-opt %s --sched-assign-schedule="threads-per-row=32 rows-per-block=32 row-storage=shared" 2>&1 | FileCheck %s --check-prefix=TOO-BIG

// GIVEN-LABEL:   sched.kernel @bf16_4096
// GIVEN-SAME:      schedule(#sched.schedule<row_group, rows_per_block = 2, threads_per_row = 64, vector_width = 2, row_storage = shared>)
// BAD: error: unknown row-storage 'disk'; expected registers, shared or global
// ILLEGAL: assign-schedule-options.mlir:[[# @LINE + 2]]:1: error: 'sched.kernel' op invalid schedule: threads_per_row must be a power of two in [1, 1024], got 48
// TOO-BIG: assign-schedule-options.mlir:[[# @LINE + 1]]:1: error: 'sched.kernel' op invalid schedule: row_storage = shared needs 262144 bytes of shared memory, more than a block can have (232448)
sched.kernel @bf16_4096 d(4096) accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<bf16>
}
