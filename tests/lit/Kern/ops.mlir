// RUN: normc-opt %s --split-input-file | normc-opt --split-input-file | FileCheck %s
// RUN: normc-opt %s --split-input-file --mlir-print-op-generic | normc-opt --split-input-file | FileCheck %s

// Kernel level: every decision the emitter needs is an op.
// CHECK-LABEL: kern.kernel @kernel_level d(256) accumulate(f32)
// CHECK:         %[[SLOTS:.*]]:2 = kern.shared_rows : !sched.kept<f32>, !sched.kept<bf16>
// CHECK:         %[[SCRATCH:.*]] = kern.shared_scratch warps(2) : !sched.scratch<f32>
// CHECK:         kern.for_row_groups {
// CHECK:           %[[ACC:.*]] = kern.accumulator compensated : !sched.accumulator<f32>
// CHECK:           kern.for_chunks {
// CHECK:             %[[C:.*]] = kern.load_chunk %{{.*}} : !sched.rows<f32> -> !sched.chunk<f32>
// CHECK:             kern.keep %[[C]], %[[SLOTS]]#0 : !sched.chunk<f32>, !sched.kept<f32>
// CHECK:             %[[R:.*]] = kern.read_kept %[[SLOTS]]#0 : !sched.kept<f32> -> !sched.chunk<f32>
// CHECK:             kern.accumulate %[[ACC]], %[[R]] count %{{.*}} : !sched.accumulator<f32>, !sched.chunk<f32> {
// CHECK:           %[[T:.*]] = kern.read_accumulator %[[ACC]] : !sched.accumulator<f32> -> f32
// CHECK:           %[[W:.*]] = kern.warp_sum %[[T]] lanes(32) : f32
// CHECK:           kern.scratch_write %[[W]], %[[SCRATCH]] : f32, !sched.scratch<f32>
// CHECK:           kern.barrier
// CHECK:           kern.scratch_sum %[[SCRATCH]] : !sched.scratch<f32> -> f32
// CHECK:           %[[V:.*]] = kern.alloc_row vectors(2) : !sched.kept<f32>
// CHECK:           kern.for_chunks unrolled(2) {
// CHECK:             kern.map_chunk
// CHECK:             kern.store_chunk
kern.kernel @kernel_level d(256) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 2, threads_per_row = 64, vector_width = 2, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %y = sched.buffer "y" : !sched.rows<f32>
  %slots:2 = kern.shared_rows : !sched.kept<f32>, !sched.kept<bf16>
  %scratch = kern.shared_scratch warps(2) : !sched.scratch<f32>
  kern.for_row_groups {
    %k = sched.feature_count fraction 1.0
    %acc = kern.accumulator compensated : !sched.accumulator<f32>
    kern.for_chunks {
      %c = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      kern.keep %c, %slots#0 : !sched.chunk<f32>, !sched.kept<f32>
      %r = kern.read_kept %slots#0 : !sched.kept<f32> -> !sched.chunk<f32>
      kern.accumulate %acc, %r count %k : !sched.accumulator<f32>, !sched.chunk<f32> {
      ^bb0(%v: f32):
        kern.yield %v : f32
      }
    }
    %t = kern.read_accumulator %acc : !sched.accumulator<f32> -> f32
    %w = kern.warp_sum %t lanes(32) : f32
    kern.scratch_write %w, %scratch : f32, !sched.scratch<f32>
    kern.barrier
    %s = kern.scratch_sum %scratch : !sched.scratch<f32> -> f32
    kern.barrier
    %v = kern.alloc_row vectors(2) : !sched.kept<f32>
    kern.for_chunks unrolled(2) {
      %c = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      %m = kern.map_chunk %c : (!sched.chunk<f32>) -> !sched.chunk<f32> {
      ^bb0(%e: f32):
        %p = arith.mulf %e, %s : f32
        kern.yield %p : f32
      }
      kern.keep %m, %v : !sched.chunk<f32>, !sched.kept<f32>
      kern.store_chunk %m, %y : !sched.chunk<f32>, !sched.rows<f32>
    }
  }
}

// -----
// CHECK-LABEL: kern.kernel @group_table d(256) accumulate(f32)
// CHECK:         %[[T:.*]] = kern.shared_groups group(128) : !sched.group_table<f32>
// CHECK:         kern.clear_group %[[T]] : !sched.group_table<f32>
// CHECK:         kern.accumulate_group_max %[[T]], %{{.*}} : !sched.group_table<f32>, !sched.chunk<f32>
// CHECK:         %[[G:.*]] = kern.read_group %[[T]] : !sched.group_table<f32> -> !sched.chunk<f32>
// CHECK:         kern.store_group %[[G]], %{{.*}} group(128) : !sched.chunk<f32>, !sched.groups<f32>
kern.kernel @group_table d(256) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %s = sched.buffer "scale" : !sched.groups<f32>
  %t = kern.shared_groups group(128) : !sched.group_table<f32>
  kern.for_row_groups {
    kern.for_chunks {
      kern.clear_group %t : !sched.group_table<f32>
    }
    kern.barrier
    kern.for_chunks {
      %c = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      kern.accumulate_group_max %t, %c : !sched.group_table<f32>, !sched.chunk<f32> {
      ^bb0(%v: f32):
        %m = math.absf %v : f32
        kern.yield %m : f32
      }
    }
    kern.barrier
    kern.for_chunks {
      %g = kern.read_group %t : !sched.group_table<f32> -> !sched.chunk<f32>
      kern.store_group %g, %s group(128) : !sched.chunk<f32>, !sched.groups<f32>
    }
  }
}

// -----
// Clusters: the schedule, the slot, its write and sum, the cluster barrier.
// CHECK-LABEL: kern.kernel @cluster_level d(65536) accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 8, rows_per_block = 1, threads_per_row = 1024, vector_width = 8, row_storage = global>)
// CHECK:         %[[SLOT:.*]] = kern.shared_cluster_slot : !sched.scratch<f32>
// CHECK:           kern.cluster_write %{{.*}}, %[[SLOT]] : f32, !sched.scratch<f32>
// CHECK-NEXT:      kern.cluster_barrier
// CHECK-NEXT:      %{{.*}} = kern.cluster_sum %[[SLOT]] combine(max) : !sched.scratch<f32> -> f32
// CHECK-NEXT:      kern.cluster_barrier
kern.kernel @cluster_level d(65536) accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 8, rows_per_block = 1, threads_per_row = 1024, vector_width = 8, row_storage = global>) {
  %slot = kern.shared_cluster_slot : !sched.scratch<f32>
  kern.for_row_groups {
    %t = arith.constant 1.0 : f32
    kern.cluster_write %t, %slot : f32, !sched.scratch<f32>
    kern.cluster_barrier
    %s = kern.cluster_sum %slot combine(max) : !sched.scratch<f32> -> f32
    kern.cluster_barrier
  }
}

// -----

// A kernel that adds partial sums: a thread per feature, the partial rows in
// order.
// CHECK-LABEL: kern.kernel @finish accumulate(f32)
// CHECK:         kern.for_features {
// CHECK-NEXT:      %[[T:.*]] = kern.sum_column %{{.*}} compensated : !sched.partials<f32> -> f32
// CHECK-NEXT:      %[[V:.*]] = arith.truncf %[[T]] : f32 to bf16
// CHECK-NEXT:      kern.store_feature %[[V]], %{{.*}} : bf16, !sched.features<bf16>
// CHECK-NEXT:      %[[U:.*]] = kern.sum_column %{{.*}} : !sched.partials<f32> -> f32
// CHECK-NEXT:      kern.store_feature %[[U]], %{{.*}} : f32, !sched.features<f32>
kern.kernel @finish accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 1, row_storage = global>) attributes {launch_order = 1} {
  %p = sched.buffer "dgamma_partials" : !sched.partials<f32>
  %q = sched.buffer "dbeta_partials" : !sched.partials<f32>
  %g = sched.buffer "dgamma" : !sched.features<bf16>
  %b = sched.buffer "dbeta" : !sched.features<f32>
  kern.for_features {
    %t = kern.sum_column %p compensated : !sched.partials<f32> -> f32
    %v = arith.truncf %t : f32 to bf16
    kern.store_feature %v, %g : bf16, !sched.features<bf16>
    %u = kern.sum_column %q : !sched.partials<f32> -> f32
    kern.store_feature %u, %b : f32, !sched.features<f32>
  }
}

// -----
// Reproducible mode's tree: a row of two warps adds its tiles through the
// table, a row of 16 lanes through a binary counter over its chunks.
// CHECK-LABEL: kern.kernel @tree_of_two_warps
// CHECK:         %[[T:.*]] = kern.shared_tiles tile(128) region(0) : !sched.group_table<f32>
// CHECK:           kern.for_chunks uniform {
// CHECK:             kern.tree_tile %[[T]], %{{.*}} count %{{.*}} lanes(32) : !sched.group_table<f32>, !sched.chunk<f32> {
// CHECK:           kern.tree_total %[[T]] depth(1) : !sched.group_table<f32> -> f32
kern.kernel @tree_of_two_warps accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) shared(#kern.shared_layout<[<rows = 1, bytes = 4, group = 128>]>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %t = kern.shared_tiles tile(128) region(0) : !sched.group_table<f32>
  kern.for_row_groups {
    %n = sched.feature_count fraction 1.0
    kern.for_chunks uniform {
      %r = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      kern.tree_tile %t, %r count %n lanes(32) : !sched.group_table<f32>, !sched.chunk<f32> {
      ^bb0(%v: f32):
        kern.yield %v : f32
      }
    }
    kern.barrier
    %s = kern.tree_total %t depth(1) : !sched.group_table<f32> -> f32
    kern.barrier
  }
}

// -----
// CHECK-LABEL: kern.kernel @tree_in_a_warp
// CHECK:         %[[A:.*]] = kern.accumulator pairwise(5) : !sched.accumulator<f32>
// CHECK:           kern.tree_tile %[[A]], %{{.*}} count %{{.*}} lanes(16) order(lanes_then_vector) : !sched.accumulator<f32>, !sched.chunk<f32> {
// CHECK:         kern.read_accumulator %[[A]] : !sched.accumulator<f32> -> f32
kern.kernel @tree_in_a_warp d(1024) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 8, threads_per_row = 16, vector_width = 4, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  kern.for_row_groups {
    %n = sched.feature_count fraction 1.0
    %a = kern.accumulator pairwise(5) : !sched.accumulator<f32>
    kern.for_chunks uniform {
      %r = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      kern.tree_tile %a, %r count %n lanes(16) order(lanes_then_vector) : !sched.accumulator<f32>, !sched.chunk<f32> {
      ^bb0(%v: f32):
        kern.yield %v : f32
      }
    }
    %s = kern.read_accumulator %a : !sched.accumulator<f32> -> f32
  }
}

// -----
// CHECK-LABEL: kern.kernel @tree_across_a_cluster
// CHECK:         kern.cluster_sum %{{.*}} pairwise : !sched.scratch<f32> -> f32
kern.kernel @tree_across_a_cluster d(4096) accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 2, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
  %slot = kern.shared_cluster_slot : !sched.scratch<f32>
  kern.for_row_groups {
    %c = arith.constant 1.0 : f32
    kern.cluster_write %c, %slot : f32, !sched.scratch<f32>
    kern.cluster_barrier
    %s = kern.cluster_sum %slot pairwise : !sched.scratch<f32> -> f32
    kern.cluster_barrier
  }
}
