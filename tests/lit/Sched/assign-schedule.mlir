// RUN: normc-opt %s --sched-assign-schedule --split-input-file | FileCheck %s --check-prefix=DEFAULT

// bf16 at d = 4096: 8-element (128-bit) vectors, 512 vectors over 128
// threads, kept in registers.
// DEFAULT-LABEL: sched.kernel @bf16_4096
// DEFAULT-SAME:    schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 8, row_storage = registers>)
sched.kernel @bf16_4096 cols(4096) accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<bf16>
}

// -----

// Small rows share a block: d = 64 in f32 takes 4 threads, 32 rows a block.
// DEFAULT-LABEL: sched.kernel @f32_64
// DEFAULT-SAME:    schedule(#sched.schedule<row_group, rows_per_block = 32, threads_per_row = 4, vector_width = 4, row_storage = registers>)
sched.kernel @f32_64 cols(64) accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
}

// -----

// d at run time: re-read the row from global memory.
// DEFAULT-LABEL: sched.kernel @dynamic
// DEFAULT-SAME:    schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 8, row_storage = global>)
sched.kernel @dynamic accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f16>
}

// -----

// Very wide rows do not fit in registers.
// DEFAULT-LABEL: sched.kernel @wide
// DEFAULT-SAME:    schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 1024, vector_width = 4, row_storage = global>)
sched.kernel @wide cols(262144) accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
}

// -----

// A schedule already set is kept.
// DEFAULT-LABEL: sched.kernel @tuned
// DEFAULT-SAME:    schedule(#sched.schedule<row_group, rows_per_block = 4, threads_per_row = 32, vector_width = 1, row_storage = shared>)
sched.kernel @tuned cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 4, threads_per_row = 32, vector_width = 1, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<f32>
}
