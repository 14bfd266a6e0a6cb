// RUN: normc-opt %s --split-input-file --kern-allocate-shared --verify-diagnostics | FileCheck %s
// RUN: normc-opt %s --split-input-file --kern-allocate-shared --kern-allocate-shared --verify-diagnostics | FileCheck %s

// One region a kept row value, in the order of kern.shared_rows' results,
// then the table of group maxima; each op names its first region. Running
// the pass again places the same regions.
// CHECK-LABEL: kern.kernel @rows_then_table
// CHECK-SAME:    shared(#kern.shared_layout<[<rows = 2, bytes = 4, vector_width = 4>, <rows = 2, bytes = 2, vector_width = 4>, <rows = 2, bytes = 4, group = 128>]>)
// CHECK:         kern.shared_rows region(0) : !sched.kept<f32>, !sched.kept<bf16>
// CHECK-NEXT:    kern.shared_groups group(128) region(2) : !sched.group_table<f32>
// CHECK-NEXT:    kern.shared_scratch warps(8) : !sched.scratch<f32>
kern.kernel @rows_then_table d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 2, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  %slots:2 = kern.shared_rows : !sched.kept<f32>, !sched.kept<bf16>
  %t = kern.shared_groups group(128) : !sched.group_table<f32>
  %scratch = kern.shared_scratch warps(8) : !sched.scratch<f32>
  kern.for_row_groups {
  }
}

// -----

// A block of a cluster keeps only its slice of the row: the region holds a
// fixed number of features (32768 / 4), whatever d the runtime passes.
// CHECK-LABEL: kern.kernel @cluster_slice
// CHECK-SAME:    shared(#kern.shared_layout<[<rows = 1, bytes = 2, vector_width = 8, features = 8192>]>)
// CHECK:         kern.shared_rows region(0) : !sched.kept<bf16>
kern.kernel @cluster_slice d(32768) accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 4, rows_per_block = 1, threads_per_row = 1024, vector_width = 8, row_storage = shared>) {
  %k = kern.shared_rows : !sched.kept<bf16>
  %scratch = kern.shared_scratch warps(32) : !sched.scratch<f32>
  %slot = kern.shared_cluster_slot : !sched.scratch<f32>
  kern.for_row_groups {
  }
}

// -----

// Registers and static scratch only: no dynamic shared memory, no layout.
// CHECK-LABEL: kern.kernel @no_dynamic_shared
// CHECK-NOT:     shared(
// CHECK:         kern.shared_scratch
kern.kernel @no_dynamic_shared d(256) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 2, threads_per_row = 64, vector_width = 2, row_storage = registers>) {
  %scratch = kern.shared_scratch warps(2) : !sched.scratch<f32>
  kern.for_row_groups {
  }
}

// -----

// The kept row fits (224 KiB), but not with the table of group maxima and
// the scratch: the kernel the pass lays out fails to verify.
// expected-error @+1 {{needs 243840 bytes of shared memory at d = 57344, more than a block can have (232448)}}
kern.kernel @over_the_limit d(57344) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 1024, vector_width = 4, row_storage = shared>) {
  %slots:1 = kern.shared_rows : !sched.kept<f32>
  %t = kern.shared_groups group(16) : !sched.group_table<f32>
  %scratch = kern.shared_scratch warps(32) : !sched.scratch<f32>
  kern.for_row_groups {
  }
}
