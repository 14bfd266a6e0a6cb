// RUN: normc-opt %s --sched-assign-schedule --split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: normc-opt %s --sched-assign-schedule=arch=90 --split-input-file | FileCheck %s --check-prefix=SM90

// bf16 at d = 4096: 8-element (128-bit) vectors, 512 vectors over 128
// threads, kept in registers.
// DEFAULT-LABEL: sched.kernel @bf16_4096
// SM90-LABEL:    sched.kernel @bf16_4096
// SM90-SAME:       row_storage = registers
// DEFAULT-SAME:    schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 8, row_storage = registers>)
sched.kernel @bf16_4096 d(4096) accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<bf16>
}

// -----

// Small rows share a block: d = 64 in f32 takes 4 threads, 32 rows a block.
// DEFAULT-LABEL: sched.kernel @f32_64
// DEFAULT-SAME:    schedule(#sched.schedule<row_group, rows_per_block = 32, threads_per_row = 4, vector_width = 4, row_storage = registers>)
sched.kernel @f32_64 d(64) accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
}

// -----

// d at run time: re-read the row from global memory, which fits any d.
// DEFAULT-LABEL: sched.kernel @dynamic
// DEFAULT-SAME:    schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 8, row_storage = global>)
sched.kernel @dynamic accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f16>
}

// -----

// Very wide rows fit neither registers nor one block's shared memory: they
// are re-read from global memory, except on sm_90, where a cluster of 8
// blocks keeps 128 KiB of the row each in shared memory.
// DEFAULT-LABEL: sched.kernel @wide
// DEFAULT-SAME:    schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 1024, vector_width = 4, row_storage = global>)
// SM90-LABEL:    sched.kernel @wide
// SM90-SAME:       schedule(#sched.schedule<cluster, cluster_size = 8, rows_per_block = 1, threads_per_row = 1024, vector_width = 4, row_storage = shared>)
sched.kernel @wide d(262144) accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
}

// -----

// A schedule already set is kept.
// DEFAULT-LABEL: sched.kernel @tuned
// DEFAULT-SAME:    schedule(#sched.schedule<row_group, rows_per_block = 4, threads_per_row = 32, vector_width = 1, row_storage = shared>)
sched.kernel @tuned d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 4, threads_per_row = 32, vector_width = 1, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<f32>
}
