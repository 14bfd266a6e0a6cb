// RUN: normc-opt %s --split-input-file --verify-diagnostics

// Kernel level: what the emitter cannot print or the GPU cannot run.

kern.kernel @mixed_levels d(64) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 4, threads_per_row = 32, vector_width = 4, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  kern.for_row_groups {
  }
  // expected-error @+1 {{expects parent op 'sched.kernel'}}
  %row = sched.load_row %x : !sched.rows<f32>
}

// -----
// expected-error @+1 {{invalid schedule: row_storage = shared needs 262144 bytes of shared memory, more than a block can have (232448)}}
kern.kernel @shared_limit d(65536) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 1024, vector_width = 4, row_storage = shared>) {
  %slots:1 = kern.shared_rows : !sched.kept<f32>
  %scratch = kern.shared_scratch warps(32) : !sched.scratch<f32>
  kern.for_row_groups {
  }
}

// -----
// The kept row fits (224 KiB), but not with the table of group maxima.
// expected-error @+1 {{needs 243712 bytes of shared memory at d = 57344, more than a block can have (232448)}}
kern.kernel @shared_limit_with_groups d(57344) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 1024, vector_width = 4, row_storage = shared>) shared(#kern.shared_layout<[<rows = 1, bytes = 4, vector_width = 4>, <rows = 1, bytes = 4, group = 16>]>) {
  %slots:1 = kern.shared_rows region(0) : !sched.kept<f32>
  %t = kern.shared_groups group(16) region(1) : !sched.group_table<f32>
  kern.for_row_groups {
  }
}

// -----
kern.kernel @warp_lanes d(64) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 8, threads_per_row = 16, vector_width = 4, row_storage = global>) {
  kern.for_row_groups {
    %c = arith.constant 1.0 : f32
    // expected-error @+1 {{sums 32 lanes, but a row has only 16 threads}}
    %s = kern.warp_sum %c lanes(32) : f32
  }
}

// -----
kern.kernel @scratch_warps d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
  %scratch = kern.shared_scratch warps(4) : !sched.scratch<f32>
  kern.for_row_groups {
    %c = arith.constant 1.0 : f32
    // expected-error @+1 {{the scratch has 4 warps a row, but a row has 256 threads}}
    kern.scratch_write %c, %scratch : f32, !sched.scratch<f32>
  }
}

// -----
kern.kernel @unrolled_count d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = registers>) {
  kern.for_row_groups {
    // expected-error @+1 {{unrolled(2) must cover the row: 4 chunks a thread}}
    kern.for_chunks unrolled(2) {
    }
  }
}

// -----
kern.kernel @registers_need_unrolled d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  kern.for_row_groups {
    %v = kern.alloc_row vectors(4) : !sched.kept<f32>
    kern.for_chunks {
      %c = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      // expected-error @+1 {{register-kept rows are only accessed in kern.for_chunks unrolled(4)}}
      kern.keep %c, %v : !sched.chunk<f32>, !sched.kept<f32>
    }
  }
}

// -----
kern.kernel @chunk_outside_loop d(64) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 4, threads_per_row = 32, vector_width = 4, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  kern.for_row_groups {
    // expected-error @+1 {{expects parent op 'kern.for_chunks'}}
    %c = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
  }
}

// -----
kern.kernel @compensated_max accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) {
  kern.for_row_groups {
    // expected-error @+1 {{compensation applies to sums only}}
    %a = kern.accumulator compensated combine(max) : !sched.accumulator<f32>
  }
}

// -----
kern.kernel @group_table_of_f16 accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) {
  // expected-error @+1 {{must hold the accumulate type}}
  %t = kern.shared_groups group(128) : !sched.group_table<f16>
}

// -----
kern.kernel @group_table_before_rows d(256) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = shared>) {
  // expected-error @+1 {{must follow kern.shared_rows}}
  %t = kern.shared_groups group(128) : !sched.group_table<f32>
  %r = kern.shared_rows : !sched.kept<f32>
  kern.for_row_groups {
  }
}

// -----
kern.kernel @two_group_tables d(256) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) {
  // expected-error @+1 {{must be the kernel's only group table}}
  %t = kern.shared_groups group(128) : !sched.group_table<f32>
  %u = kern.shared_groups group(128) : !sched.group_table<f32>
}

// -----
kern.kernel @read_group_outside_rows d(256) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) {
  %t = kern.shared_groups group(128) : !sched.group_table<f32>
  kern.for_chunks {
    // expected-error @+1 {{reads the current row's groups outside kern.for_row_groups}}
    %g = kern.read_group %t : !sched.group_table<f32> -> !sched.chunk<f32>
  }
  kern.for_row_groups {
  }
}

// -----
kern.kernel @store_group_of_another_type d(256) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) {
  %s = sched.buffer "scale" : !sched.groups<f16>
  %t = kern.shared_groups group(128) : !sched.group_table<f32>
  kern.for_row_groups {
    kern.for_chunks {
      %g = kern.read_group %t : !sched.group_table<f32> -> !sched.chunk<f32>
      // expected-error @+1 {{value of 'f32' cannot be stored into 'f16'}}
      kern.store_group %g, %s group(128) : !sched.chunk<f32>, !sched.groups<f16>
    }
  }
}

// -----
// expected-error @+1 {{invalid schedule: strategy cluster cannot spread per-feature sums over rows or per-group values over the blocks of a cluster}}
kern.kernel @cluster_with_groups d(4096) accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 2, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
  %s = sched.buffer "scale" : !sched.groups<f32>
  %t = kern.shared_groups group(128) : !sched.group_table<f32>
}

// -----
kern.kernel @cluster_ops_in_a_row_group d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
  // expected-error @+1 {{needs a kernel of strategy cluster}}
  %slot = kern.shared_cluster_slot : !sched.scratch<f32>
}

// -----
kern.kernel @cluster_sum_of_a_warp_scratch d(4096) accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 2, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
  %s = kern.shared_scratch warps(8) : !sched.scratch<f32>
  kern.for_row_groups {
    // expected-error @+1 {{needs a slot of kern.shared_cluster_slot}}
    %t = kern.cluster_sum %s : !sched.scratch<f32> -> f32
  }
}

// -----
kern.kernel @cluster_slot_of_another_type d(4096) accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 2, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
  // expected-error @+1 {{must hold the accumulate type}}
  %slot = kern.shared_cluster_slot : !sched.scratch<f64>
}

// -----
kern.kernel @async_read_before_wait d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %k = kern.shared_rows : !sched.kept<f32>
  kern.for_row_groups {
    kern.for_chunks {
      // expected-note @+1 {{the copy}}
      kern.async_keep %x, %k : !sched.rows<f32>, !sched.kept<f32>
    }
    kern.for_chunks {
      // expected-error @+1 {{uses a kept row before the asynchronous copy into it is waited for (kern.async_wait)}}
      %c = kern.read_kept %k : !sched.kept<f32> -> !sched.chunk<f32>
    }
    kern.async_wait
  }
}

// -----
kern.kernel @async_copy_never_waited_for d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %k = kern.shared_rows : !sched.kept<f32>
  kern.for_row_groups {
    kern.for_chunks {
      // expected-error @+1 {{is not waited for (kern.async_wait) before the row ends}}
      kern.async_keep %x, %k : !sched.rows<f32>, !sched.kept<f32>
    }
  }
}

// -----
kern.kernel @async_copy_into_registers d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  kern.for_row_groups {
    %k = kern.alloc_row vectors(4) : !sched.kept<f32>
    kern.for_chunks unrolled(4) {
      // expected-error @+1 {{copies only into shared memory (a row of kern.shared_rows)}}
      kern.async_keep %x, %k : !sched.rows<f32>, !sched.kept<f32>
    }
    kern.async_wait
  }
}

// -----
kern.kernel @async_copy_of_two_bytes d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 1, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<bf16>
  %k = kern.shared_rows : !sched.kept<bf16>
  kern.for_row_groups {
    kern.for_chunks {
      // expected-error @+1 {{copies chunks of 2 bytes; asynchronous copies take 4 to 64}}
      kern.async_keep %x, %k : !sched.rows<bf16>, !sched.kept<bf16>
    }
    kern.async_wait
  }
}

// -----
kern.kernel @async_copy_of_another_type d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<f16>
  %k = kern.shared_rows : !sched.kept<f32>
  kern.for_row_groups {
    kern.for_chunks {
      // expected-error @+1 {{value of 'f16' cannot be stored into 'f32'}}
      kern.async_keep %x, %k : !sched.rows<f16>, !sched.kept<f32>
    }
    kern.async_wait
  }
}

// -----
kern.kernel @async_wait_outside_the_row_loop d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  // expected-error @+1 {{expects parent op 'kern.for_row_groups'}}
  kern.async_wait
}

// -----
// expected-error @+1 {{has the shared layout #kern.shared_layout<[<rows = 1, bytes = 2, vector_width = 4>]>, but its ops need #kern.shared_layout<[<rows = 1, bytes = 4, vector_width = 4>]>}}
kern.kernel @layout_of_another_type d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) shared(#kern.shared_layout<[<rows = 1, bytes = 2, vector_width = 4>]>) {
  %k = kern.shared_rows region(0) : !sched.kept<f32>
  kern.for_row_groups {
  }
}

// -----
kern.kernel @region_without_layout d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  // expected-error @+1 {{names a region, but the kernel has no shared layout}}
  %k = kern.shared_rows region(0) : !sched.kept<f32>
  kern.for_row_groups {
  }
}

// -----
kern.kernel @layout_without_region d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) shared(#kern.shared_layout<[<rows = 1, bytes = 4, vector_width = 4>]>) {
  // expected-error @+1 {{needs its region in the kernel's shared layout; run kern-allocate-shared}}
  %k = kern.shared_rows : !sched.kept<f32>
  kern.for_row_groups {
  }
}

// -----
kern.kernel @table_over_a_row d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) shared(#kern.shared_layout<[<rows = 1, bytes = 4, vector_width = 4>, <rows = 1, bytes = 4, group = 128>]>) {
  %k = kern.shared_rows region(0) : !sched.kept<f32>
  // expected-error @+1 {{must take region 1, after the kept rows; got 0}}
  %t = kern.shared_groups group(128) region(0) : !sched.group_table<f32>
  kern.for_row_groups {
  }
}

// -----
// expected-error @+1 {{invalid shared layout: a region has 1 to 1024 rows, got 0}}
kern.kernel @layout_of_no_rows d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) shared(#kern.shared_layout<[<rows = 0, bytes = 4, vector_width = 4>]>) {
}

// -----
// expected-error @+1 {{invalid shared layout: a region per group has groups of a power of two in [16, 1024] features and no vector width, got group 100, vector width 1}}
kern.kernel @layout_group d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) shared(#kern.shared_layout<[<rows = 1, bytes = 4, group = 100>]>) {
}

// -----
// expected-error @+1 {{unknown region field 'offset'; expected rows, bytes, vector_width, features or group}}
kern.kernel @layout_field d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) shared(#kern.shared_layout<[<rows = 1, offset = 4>]>) {
}

// -----
// A kernel runs one loop: over row groups, or over features.
// expected-error @+1 {{must run one kern.for_row_groups or kern.for_features, has 0}}
kern.kernel @no_loop accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 1, row_storage = global>) {
  %p = sched.buffer "partials" : !sched.partials<f32>
}

// -----
// expected-error @+1 {{must run one kern.for_row_groups or kern.for_features, has 2}}
kern.kernel @two_loops accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 1, row_storage = global>) {
  kern.for_features {
  }
  kern.for_features {
  }
}

// -----
kern.kernel @sum_column_type accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 1, row_storage = global>) {
  %p = sched.buffer "partials" : !sched.partials<f32>
  kern.for_features {
    // expected-error @+1 {{reads '!sched.partials<f32>' as 'f64'}}
    %t = kern.sum_column %p : !sched.partials<f32> -> f64
  }
}

// -----
kern.kernel @sum_column_outside accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 1, row_storage = global>) {
  %p = sched.buffer "partials" : !sched.partials<f32>
  kern.for_row_groups {
    // expected-error @+1 {{expects parent op 'kern.for_features'}}
    %t = kern.sum_column %p : !sched.partials<f32> -> f32
  }
}

// -----
kern.kernel @store_feature_type accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 1, row_storage = global>) {
  %p = sched.buffer "partials" : !sched.partials<f32>
  %g = sched.buffer "dgamma" : !sched.features<bf16>
  kern.for_features {
    %t = kern.sum_column %p : !sched.partials<f32> -> f32
    // expected-error @+1 {{value of type 'f32' cannot be stored into '!sched.features<bf16>'}}
    kern.store_feature %t, %g : f32, !sched.features<bf16>
  }
}

// -----
kern.kernel @buffer_in_loop accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 1, row_storage = global>) {
  kern.for_row_groups {
    // expected-error @+1 {{must be directly in a kernel}}
    %x = sched.buffer "x" : !sched.rows<f32>
  }
}

// -----
kern.kernel @map_in_kernel_level d(64) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 1, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  kern.for_row_groups {
    kern.for_chunks {
      %c = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      // expected-error @+1 {{body must end with kern.yield}}
      %m = kern.map_chunk %c : (!sched.chunk<f32>) -> !sched.chunk<f32> {
      ^bb0(%v: f32):
        sched.yield %v : f32
      }
    }
  }
}

// -----
// Fixed partial rows (reproducible mode) belong to a kernel that stores
// partials, and fill whole blocks.
// expected-error @+1 {{has partial_rows but stores no partials}}
kern.kernel @partial_rows_without_partials d(64) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 4, threads_per_row = 32, vector_width = 4, row_storage = global>) partial_rows(4096) {
  kern.for_row_groups {
  }
}

// -----
// expected-error @+1 {{partial_rows must be a multiple of rows_per_block (4) in [1, 4096], got 4094}}
kern.kernel @partial_rows_of_part_blocks d(64) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 4, threads_per_row = 32, vector_width = 4, row_storage = global>) partial_rows(4094) {
  %p = sched.buffer "partials" : !sched.partials<f32>
  kern.for_chunks {
    %z = kern.map_chunk : () -> !sched.chunk<f32> {
      %c = arith.constant 0.0 : f32
      kern.yield %c : f32
    }
    kern.store_partials %z, %p : !sched.chunk<f32>, !sched.partials<f32>
  }
  kern.for_row_groups {
  }
}

// -----
// Reproducible mode's tree: the shuffles need every lane in the pass.
kern.kernel @tree_in_a_ragged_pass d(1000) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 8, threads_per_row = 16, vector_width = 4, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  kern.for_row_groups {
    %n = sched.feature_count fraction 1.0
    %a = kern.accumulator pairwise(5) : !sched.accumulator<f32>
    kern.for_chunks {
      %r = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      // expected-error @+1 {{shuffles across lanes, so its kern.for_chunks must be uniform or unrolled}}
      kern.tree_tile %a, %r count %n lanes(16) : !sched.accumulator<f32>, !sched.chunk<f32> {
      ^bb0(%v: f32):
        kern.yield %v : f32
      }
    }
  }
}

// -----
kern.kernel @tree_of_part_of_a_row d(1000) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 8, threads_per_row = 16, vector_width = 4, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  kern.for_row_groups {
    %n = sched.feature_count fraction 1.0
    %a = kern.accumulator pairwise(5) : !sched.accumulator<f32>
    kern.for_chunks uniform {
      %r = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      // expected-error @+1 {{a pairwise accumulator takes tiles of the whole row group's lanes (16) outside a cluster; got lanes(8)}}
      kern.tree_tile %a, %r count %n lanes(8) : !sched.accumulator<f32>, !sched.chunk<f32> {
      ^bb0(%v: f32):
        kern.yield %v : f32
      }
    }
  }
}

// -----
kern.kernel @tree_into_a_plain_sum d(1000) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 8, threads_per_row = 16, vector_width = 4, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  kern.for_row_groups {
    %n = sched.feature_count fraction 1.0
    %a = kern.accumulator : !sched.accumulator<f32>
    kern.for_chunks uniform {
      %r = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      // expected-error @+1 {{adds to a pairwise accumulator or a tile table}}
      kern.tree_tile %a, %r count %n lanes(16) : !sched.accumulator<f32>, !sched.chunk<f32> {
      ^bb0(%v: f32):
        kern.yield %v : f32
      }
    }
  }
}

// -----
kern.kernel @in_order_into_a_tree d(1000) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 8, threads_per_row = 16, vector_width = 4, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  kern.for_row_groups {
    %n = sched.feature_count fraction 1.0
    %a = kern.accumulator pairwise(5) : !sched.accumulator<f32>
    kern.for_chunks {
      %r = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      // expected-error @+1 {{cannot add terms in order to a pairwise accumulator; kern.tree_tile adds to it}}
      kern.accumulate %a, %r count %n : !sched.accumulator<f32>, !sched.chunk<f32> {
      ^bb0(%v: f32):
        kern.yield %v : f32
      }
    }
  }
}

// -----
kern.kernel @compensated_tree d(64) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 8, threads_per_row = 16, vector_width = 4, row_storage = global>) {
  kern.for_row_groups {
    // expected-error @+1 {{a pairwise accumulator is a plain sum}}
    %a = kern.accumulator compensated pairwise(3) : !sched.accumulator<f32>
  }
}

// -----
kern.kernel @deep_tree d(64) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 8, threads_per_row = 16, vector_width = 4, row_storage = global>) {
  kern.for_row_groups {
    // expected-error @+1 {{pairwise needs 1 to 25 levels, got 26}}
    %a = kern.accumulator pairwise(26) : !sched.accumulator<f32>
  }
}

// -----
kern.kernel @tiles_of_a_warp_row d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 4, threads_per_row = 32, vector_width = 4, row_storage = global>) shared(#kern.shared_layout<[<rows = 4, bytes = 4, group = 128>]>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %t = kern.shared_tiles tile(128) region(0) : !sched.group_table<f32>
  kern.for_row_groups {
    %n = sched.feature_count fraction 1.0
    kern.for_chunks uniform {
      %r = kern.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      // expected-error @+1 {{a tile table takes the tiles of the 32 lanes of a warp, in rows of more than one warp or a cluster; got lanes(32) with 32 threads a row}}
      kern.tree_tile %t, %r count %n lanes(32) : !sched.group_table<f32>, !sched.chunk<f32> {
      ^bb0(%v: f32):
        kern.yield %v : f32
      }
    }
  }
}

// -----
// expected-error @+1 {{has the shared layout}}
kern.kernel @tiles_without_their_region d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) shared(#kern.shared_layout<[<rows = 1, bytes = 4, group = 64>]>) {
  %t = kern.shared_tiles tile(128) region(0) : !sched.group_table<f32>
  kern.for_row_groups {
  }
}

// -----
kern.kernel @tiles_of_another_width d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) shared(#kern.shared_layout<[<rows = 1, bytes = 4, group = 64>]>) {
  // expected-error @+1 {{a tile is a warp's chunk, 128 features; got 64}}
  %t = kern.shared_tiles tile(64) region(0) : !sched.group_table<f32>
  kern.for_row_groups {
  }
}

// -----
kern.kernel @tree_total_deep d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) shared(#kern.shared_layout<[<rows = 1, bytes = 4, group = 128>]>) {
  %t = kern.shared_tiles tile(128) region(0) : !sched.group_table<f32>
  kern.for_row_groups {
    // expected-error @+1 {{depth must be in [1, 25], got 0}}
    %s = kern.tree_total %t depth(0) : !sched.group_table<f32> -> f32
  }
}

// -----
kern.kernel @pairwise_cluster_of_maxima d(4096) accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 2, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
  %slot = kern.shared_cluster_slot : !sched.scratch<f32>
  kern.for_row_groups {
    // expected-error @+1 {{a pairwise tree adds a power of two of slots, got 2 maxima}}
    %s = kern.cluster_sum %slot combine(max) pairwise : !sched.scratch<f32> -> f32
  }
}

// -----
kern.kernel @groups_in_the_tile_table d(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) shared(#kern.shared_layout<[<rows = 1, bytes = 4, group = 128>]>) {
  %t = kern.shared_tiles tile(128) region(0) : !sched.group_table<f32>
  kern.for_row_groups {
    kern.for_chunks {
      // expected-error @+1 {{needs a table of kern.shared_groups}}
      kern.clear_group %t : !sched.group_table<f32>
    }
  }
}
