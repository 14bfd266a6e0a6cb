// RUN: normc-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{invalid schedule: threads_per_row must be a power of two in [1, 1024], got 96}}
sched.kernel @threads accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 96, vector_width = 4, row_storage = global>) {
}

// -----

// expected-error @+1 {{invalid schedule: a block must hold whole warps, got 16 threads}}
sched.kernel @partial_warp accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 16, vector_width = 4, row_storage = global>) {
}

// -----

// expected-error @+1 {{rows_per_block * threads_per_row must be in [1, 1024], got 8 * 256}}
sched.kernel @big_block accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 8, threads_per_row = 256, vector_width = 4, row_storage = global>) {
}

// -----

// expected-error @+1 {{rows_per_block * threads_per_row must be in [1, 1024], got 4611686018427387904 * 1024}}
sched.kernel @overflow accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 4611686018427387904, threads_per_row = 1024, vector_width = 4, row_storage = global>) {
}

// -----

// expected-error @+1 {{malformed schedule; expected <row_group, rows_per_block = N, threads_per_row = N, vector_width = N, row_storage = registers|shared|global>}}
sched.kernel @strategy accumulate(f32) schedule(#sched.schedule<clusters, rows_per_block = 1, threads_per_row = 32, vector_width = 4, row_storage = global>) {
}

// -----

// expected-error @+1 {{malformed schedule}}
sched.kernel @missing_field accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 32, row_storage = global>) {
}

// -----

// expected-error @+1 {{row_storage = registers needs cols fixed at compile time}}
sched.kernel @registers_dynamic accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = registers>) {
}

// -----

// expected-error @+1 {{row_storage = registers would keep 256 vectors per thread (at most 32); use more threads per row or another row_storage}}
sched.kernel @too_wide_for_registers cols(65536) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<f32>
}

// -----

// expected-error @+1 {{row_storage = registers would keep 32 registers a thread, more than the 8 a block of 1024 threads leaves; use another row_storage}}
sched.kernel @spills cols(65536) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 1024, vector_width = 8, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<bf16>
}

// -----

// expected-error @+1 {{vector_width 8 exceeds 128 bits for 32-bit elements}}
sched.kernel @wide accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 8, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
}

// -----

// expected-error @+1 {{cols must be in [1, 16777216], got 0}}
sched.kernel @no_cols cols(0) accumulate(f32) {
}

// -----

// A symbol from hand-written IR must not carry code into the CUDA source.
// expected-error @+1 {{symbol 'k(){} #include "/etc/passwd" //' must be a C identifier}}
sched.kernel @"k(){} #include \"/etc/passwd\" //" accumulate(f32) {
}

// -----

// expected-error @+1 {{symbol 'sqrtf' is declared by CUDA (NVRTC's built-ins or the CUDA headers the emitted source includes)}}
sched.kernel @sqrtf accumulate(f32) {
}

// -----

// expected-error @+1 {{symbol 'normc_load' is reserved}}
sched.kernel @normc_load accumulate(f32) {
}

// -----

sched.kernel @buffer_names accumulate(f32) {
  // expected-error @+1 {{name 'x[0]' must be a C identifier}}
  %x = sched.buffer "x[0]" : !sched.rows<f32>
}

// -----

sched.kernel @local_names accumulate(f32) {
  // expected-error @+1 {{name 'lane_in_row' is a local of every emitted kernel}}
  %x = sched.buffer "lane_in_row" : !sched.rows<f32>
}

// -----

sched.kernel @group_count_name accumulate(f32) {
  // expected-error @+1 {{name 'groups' is a local of every emitted kernel}}
  %x = sched.buffer "groups" : !sched.rows<f32>
}

// -----

sched.kernel @macro_names accumulate(f32) {
  // expected-error @+1 {{name 'EOF' must be lower case ([a-z0-9_]), as the buffers the runtime binds are}}
  %x = sched.buffer "EOF" : !sched.rows<f32>
}

// -----

sched.kernel @generated_names accumulate(f32) {
  // expected-error @+1 {{name 'c12' has the form of a name the emitter generates}}
  %x = sched.buffer "c12" : !sched.rows<f32>
}

// -----

sched.kernel @duplicate accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
  // expected-error @+1 {{duplicate buffer 'x'}}
  %y = sched.buffer "x" : !sched.rows<f32>
}

// -----

sched.kernel @element_type accumulate(f32) {
  // expected-error @+1 {{element type must be f32, f16, bf16, f8E4M3FN or f8E5M2, got 'i8'}}
  %x = sched.buffer "x" : !sched.rows<i8>
}

// -----

sched.kernel @store_type accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %y = sched.buffer "y" : !sched.rows<bf16>
  %row = sched.load_row %x : !sched.rows<f32>
  // expected-error @+1 {{value of 'f32' cannot be stored into 'bf16'}}
  sched.store_row %row, %y : !sched.row<f32>, !sched.rows<bf16>
}

// -----

sched.kernel @reduce_type accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %row = sched.load_row %x : !sched.rows<f32>
  %k = sched.feature_count fraction 1.0
  // expected-error @+1 {{sums in 'f64', but the kernel accumulates in 'f32'}}
  %s = sched.reduce %row count %k : (!sched.row<f32>) -> f64 {
  ^bb0(%h: f32):
    %e = arith.extf %h : f32 to f64
    sched.yield %e : f64
  }
}

// -----

sched.kernel @arithmetic_type accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<bf16>
  %y = sched.buffer "y" : !sched.rows<bf16>
  %row = sched.load_row %x : !sched.rows<bf16>
  %out = sched.map %row : (!sched.row<bf16>) -> !sched.row<bf16> {
  ^bb0(%h: bf16):
    // expected-error @+1 {{computes in 'bf16', but the kernel accumulates in 'f32'}}
    %p = arith.mulf %h, %h : bf16
    sched.yield %p : bf16
  }
  sched.store_row %out, %y : !sched.row<bf16>, !sched.rows<bf16>
}

// -----

sched.kernel @body_arguments accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %row = sched.load_row %x : !sched.rows<f32>
  // expected-error @+1 {{body argument of type 'f16' for an operand of '!sched.row<f32>'}}
  %out = sched.map %row : (!sched.row<f32>) -> !sched.row<f32> {
  ^bb0(%h: f16):
    %e = arith.extf %h : f16 to f32
    sched.yield %e : f32
  }
}

// -----

sched.kernel @body_yield accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<bf16>
  %row = sched.load_row %x : !sched.rows<bf16>
  // expected-error @+1 {{body yields 'f32', expected 'bf16'}}
  %out = sched.map %row : (!sched.row<bf16>) -> !sched.row<bf16> {
  ^bb0(%h: bf16):
    %e = arith.extf %h : bf16 to f32
    sched.yield %e : f32
  }
}

// -----

sched.kernel @not_emittable accumulate(f32) {
  %a = arith.constant 2.0 : f32
  // expected-error @+1 {{'math.exp' op cannot be emitted as CUDA}}
  %b = math.exp %a : f32
}

// -----

sched.kernel @not_finite accumulate(f32) {
  // expected-error @+1 {{constant must be finite, got INF}}
  %a = arith.constant 0x7F800000 : f32
}

// -----

sched.kernel @zero_fraction accumulate(f32) {
  // expected-error @+1 {{fraction must be in (0, 1], got 0}}
  %k = sched.feature_count fraction 0.0
}

// -----

sched.kernel @stat_type accumulate(f64) {
  %st = sched.buffer "rstd" : !sched.stats<f32>
  %c = arith.constant 1.0 : f64
  // expected-error @+1 {{value of type 'f64' cannot be stored into stats of 'f32'}}
  sched.store_stat %c, %st : f64, !sched.stats<f32>
}

// -----

// expected-error @+1 {{has the launch_order 0 of @b; the kernels of a module run one after another}}
sched.kernel @a accumulate(f32) {
}
// expected-error @+1 {{has the launch_order 0 of @a; the kernels of a module run one after another}}
sched.kernel @b accumulate(f32) {
}

// -----

// Kernel level: what the emitter cannot print or the GPU cannot run.

sched.kernel @mixed_levels cols(64) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 4, threads_per_row = 32, vector_width = 4, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  sched.for_row_groups {
  }
  // expected-error @+1 {{is a row-level op in a kernel already lowered to loops}}
  %row = sched.load_row %x : !sched.rows<f32>
}

// -----

// expected-error @+1 {{invalid schedule: row_storage = shared needs 262144 bytes of shared memory, more than a block can have (232448)}}
sched.kernel @shared_limit cols(65536) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 1024, vector_width = 4, row_storage = shared>) {
  %slots:1 = sched.shared_rows : !sched.kept<f32>
  %scratch = sched.shared_scratch warps(32) : !sched.scratch<f32>
  sched.for_row_groups {
  }
}

// -----

// The kept row fits (224 KiB), but not with the table of group maxima.
// expected-error @+1 {{needs 243712 bytes of shared memory at d = 57344, more than a block can have (232448)}}
sched.kernel @shared_limit_with_groups cols(57344) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 1024, vector_width = 4, row_storage = shared>) shared(#sched.shared_layout<[<rows = 1, bytes = 4, vector_width = 4>, <rows = 1, bytes = 4, group = 16>]>) {
  %slots:1 = sched.shared_rows region(0) : !sched.kept<f32>
  %t = sched.shared_groups group(16) region(1) : !sched.group_table<f32>
  sched.for_row_groups {
  }
}

// -----

sched.kernel @warp_lanes cols(64) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 8, threads_per_row = 16, vector_width = 4, row_storage = global>) {
  sched.for_row_groups {
    %c = arith.constant 1.0 : f32
    // expected-error @+1 {{sums 32 lanes, but a row has only 16 threads}}
    %s = sched.warp_sum %c lanes(32) : f32
  }
}

// -----

sched.kernel @scratch_warps cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
  %scratch = sched.shared_scratch warps(4) : !sched.scratch<f32>
  sched.for_row_groups {
    %c = arith.constant 1.0 : f32
    // expected-error @+1 {{the scratch has 4 warps a row, but a row has 256 threads}}
    sched.scratch_write %c, %scratch : f32, !sched.scratch<f32>
  }
}

// -----

sched.kernel @unrolled_count cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = registers>) {
  sched.for_row_groups {
    // expected-error @+1 {{unrolled(2) must cover the row: 4 chunks a thread}}
    sched.for_chunks unrolled(2) {
    }
  }
}

// -----

sched.kernel @registers_need_unrolled cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  sched.for_row_groups {
    %v = sched.alloc_row vectors(4) : !sched.kept<f32>
    sched.for_chunks {
      %c = sched.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
      // expected-error @+1 {{register-kept rows are only accessed in sched.for_chunks unrolled(4)}}
      sched.keep %c, %v : !sched.chunk<f32>, !sched.kept<f32>
    }
  }
}

// -----

sched.kernel @chunk_outside_loop cols(64) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 4, threads_per_row = 32, vector_width = 4, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  sched.for_row_groups {
    // expected-error @+1 {{expects parent op 'sched.for_chunks'}}
    %c = sched.load_chunk %x : !sched.rows<f32> -> !sched.chunk<f32>
  }
}

// -----

sched.kernel @compensated_max accumulate(f32) {
  sched.for_row_groups {
    // expected-error @+1 {{compensation applies to sums only}}
    %a = sched.accumulator compensated combine(max) : !sched.accumulator<f32>
  }
}

// -----

sched.kernel @scalar_of_another_type accumulate(f32) {
  %s = sched.buffer "s" : !sched.scalar<f32>
  // expected-error @+1 {{reads a scalar of 'f32' as 'f64'}}
  %v = sched.load_scalar %s : !sched.scalar<f32> -> f64
}

// -----

sched.kernel @fp8_arithmetic accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f8E4M3FN>
  %row = sched.load_row %x : !sched.rows<f8E4M3FN>
  %out = sched.map %row : (!sched.row<f8E4M3FN>) -> !sched.row<f8E4M3FN> {
  ^bb0(%v: f8E4M3FN):
    // expected-error @+1 {{result type 'f8E4M3FN' cannot be emitted}}
    %t = arith.addf %v, %v : f8E4M3FN
    sched.yield %t : f8E4M3FN
  }
  sched.store_row %out, %x : !sched.row<f8E4M3FN>, !sched.rows<f8E4M3FN>
}

// -----

sched.kernel @ordered_comparison accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %row = sched.load_row %x : !sched.rows<f32>
  %out = sched.map %row : (!sched.row<f32>) -> !sched.row<f32> {
  ^bb0(%v: f32):
    // expected-error @+1 {{cannot be emitted as CUDA}}
    %z = arith.cmpf olt, %v, %v : f32
    %t = arith.select %z, %v, %v : f32
    sched.yield %t : f32
  }
  sched.store_row %out, %x : !sched.row<f32>, !sched.rows<f32>
}

// -----

sched.kernel @fp8_features accumulate(f32) {
  // expected-error @+1 {{element type must be f32, f16 or bf16, got 'f8E4M3FN'}}
  %g = sched.buffer "gamma" : !sched.features<f8E4M3FN>
}

// -----

sched.kernel @group_not_a_power_of_two accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %row = sched.load_row %x : !sched.rows<f32>
  // expected-error @+1 {{group must be a power of two in [16, 1024], got 96}}
  %a = sched.group_max %row group(96) : (!sched.row<f32>) -> !sched.row<f32> {
  ^bb0(%v: f32):
    sched.yield %v : f32
  }
}

// -----

sched.kernel @two_group_sizes accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %s = sched.buffer "scale" : !sched.groups<f32>
  %row = sched.load_row %x : !sched.rows<f32>
  %a = sched.group_max %row group(128) : (!sched.row<f32>) -> !sched.row<f32> {
  ^bb0(%v: f32):
    sched.yield %v : f32
  }
  // expected-error @+1 {{uses groups of 64 features, but the kernel's are 128}}
  sched.store_groups %a, %s group(64) : !sched.row<f32>, !sched.groups<f32>
}

// -----

sched.kernel @group_max_of_another_type accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %row = sched.load_row %x : !sched.rows<f32>
  // expected-error @+1 {{body yields 'f16', expected 'f32'}}
  %a = sched.group_max %row group(128) : (!sched.row<f32>) -> !sched.row<f32> {
  ^bb0(%v: f32):
    %h = arith.truncf %v : f32 to f16
    sched.yield %h : f16
  }
}

// -----

sched.kernel @group_table_of_f16 accumulate(f32) {
  // expected-error @+1 {{must hold the accumulate type}}
  %t = sched.shared_groups group(128) : !sched.group_table<f16>
}

// -----

sched.kernel @group_table_before_rows cols(256) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = shared>) {
  // expected-error @+1 {{must follow sched.shared_rows}}
  %t = sched.shared_groups group(128) : !sched.group_table<f32>
  %r = sched.shared_rows : !sched.kept<f32>
  sched.for_row_groups {
  }
}

// -----

sched.kernel @two_group_tables cols(256) accumulate(f32) {
  // expected-error @+1 {{must be the kernel's only group table}}
  %t = sched.shared_groups group(128) : !sched.group_table<f32>
  %u = sched.shared_groups group(128) : !sched.group_table<f32>
}

// -----

sched.kernel @read_group_outside_rows cols(256) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) {
  %t = sched.shared_groups group(128) : !sched.group_table<f32>
  sched.for_chunks {
    // expected-error @+1 {{reads the current row's groups outside sched.for_row_groups}}
    %g = sched.read_group %t : !sched.group_table<f32> -> !sched.chunk<f32>
  }
  sched.for_row_groups {
  }
}

// -----

sched.kernel @store_group_of_another_type cols(256) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = global>) {
  %s = sched.buffer "scale" : !sched.groups<f16>
  %t = sched.shared_groups group(128) : !sched.group_table<f32>
  sched.for_row_groups {
    sched.for_chunks {
      %g = sched.read_group %t : !sched.group_table<f32> -> !sched.chunk<f32>
      // expected-error @+1 {{value of 'f32' cannot be stored into 'f16'}}
      sched.store_group %g, %s group(128) : !sched.chunk<f32>, !sched.groups<f16>
    }
  }
}

// -----

sched.kernel @groups_without_a_size accumulate(f32) {
  // expected-error @+1 {{is a [rows, groups] buffer, but no op of the kernel gives a group size}}
  %s = sched.buffer "scale" : !sched.groups<f32>
}

// -----

// expected-error @+1 {{invalid schedule: cluster_size must be a power of two in [2, 8], got 16}}
sched.kernel @cluster_too_large cols(4096) accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 16, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
}

// -----

// expected-error @+1 {{invalid schedule: strategy cluster needs cols fixed at compile time}}
sched.kernel @cluster_without_cols accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 2, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
}

// -----

// expected-error @+1 {{malformed schedule}}
sched.kernel @cluster_size_of_a_row_group cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, cluster_size = 2, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
}

// -----

// expected-error @+1 {{invalid schedule: strategy cluster cannot spread per-feature sums over rows or per-group values over the blocks of a cluster}}
sched.kernel @cluster_with_groups cols(4096) accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 2, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
  %s = sched.buffer "scale" : !sched.groups<f32>
  %t = sched.shared_groups group(128) : !sched.group_table<f32>
}

// -----

sched.kernel @cluster_ops_in_a_row_group cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
  // expected-error @+1 {{needs a kernel of strategy cluster}}
  %slot = sched.shared_cluster_slot : !sched.scratch<f32>
}

// -----

sched.kernel @cluster_sum_of_a_warp_scratch cols(4096) accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 2, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
  %s = sched.shared_scratch warps(8) : !sched.scratch<f32>
  sched.for_row_groups {
    // expected-error @+1 {{needs a slot of sched.shared_cluster_slot}}
    %t = sched.cluster_sum %s : !sched.scratch<f32> -> f32
  }
}

// -----

sched.kernel @cluster_slot_of_another_type cols(4096) accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 2, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
  // expected-error @+1 {{must hold the accumulate type}}
  %slot = sched.shared_cluster_slot : !sched.scratch<f64>
}

// -----

sched.kernel @async_read_before_wait cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %k = sched.shared_rows : !sched.kept<f32>
  sched.for_row_groups {
    sched.for_chunks {
      // expected-note @+1 {{the copy}}
      sched.async_keep %x, %k : !sched.rows<f32>, !sched.kept<f32>
    }
    sched.for_chunks {
      // expected-error @+1 {{uses a kept row before the asynchronous copy into it is waited for (sched.async_wait)}}
      %c = sched.read_kept %k : !sched.kept<f32> -> !sched.chunk<f32>
    }
    sched.async_wait
  }
}

// -----

sched.kernel @async_copy_never_waited_for cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %k = sched.shared_rows : !sched.kept<f32>
  sched.for_row_groups {
    sched.for_chunks {
      // expected-error @+1 {{is not waited for (sched.async_wait) before the row ends}}
      sched.async_keep %x, %k : !sched.rows<f32>, !sched.kept<f32>
    }
  }
}

// -----

sched.kernel @async_copy_into_registers cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<f32>
  sched.for_row_groups {
    %k = sched.alloc_row vectors(4) : !sched.kept<f32>
    sched.for_chunks unrolled(4) {
      // expected-error @+1 {{copies only into shared memory (a row of sched.shared_rows)}}
      sched.async_keep %x, %k : !sched.rows<f32>, !sched.kept<f32>
    }
    sched.async_wait
  }
}

// -----

sched.kernel @async_copy_of_two_bytes cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 1, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<bf16>
  %k = sched.shared_rows : !sched.kept<bf16>
  sched.for_row_groups {
    sched.for_chunks {
      // expected-error @+1 {{copies chunks of 2 bytes; asynchronous copies take 4 to 64}}
      sched.async_keep %x, %k : !sched.rows<bf16>, !sched.kept<bf16>
    }
    sched.async_wait
  }
}

// -----

sched.kernel @async_copy_of_another_type cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  %x = sched.buffer "x" : !sched.rows<f16>
  %k = sched.shared_rows : !sched.kept<f32>
  sched.for_row_groups {
    sched.for_chunks {
      // expected-error @+1 {{value of 'f16' cannot be stored into 'f32'}}
      sched.async_keep %x, %k : !sched.rows<f16>, !sched.kept<f32>
    }
    sched.async_wait
  }
}

// -----

sched.kernel @async_wait_outside_the_row_loop cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  // expected-error @+1 {{expects parent op 'sched.for_row_groups'}}
  sched.async_wait
}

// -----

// expected-error @+1 {{has the shared layout #sched.shared_layout<[<rows = 1, bytes = 2, vector_width = 4>]>, but its ops need #sched.shared_layout<[<rows = 1, bytes = 4, vector_width = 4>]>}}
sched.kernel @layout_of_another_type cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) shared(#sched.shared_layout<[<rows = 1, bytes = 2, vector_width = 4>]>) {
  %k = sched.shared_rows region(0) : !sched.kept<f32>
  sched.for_row_groups {
  }
}

// -----

sched.kernel @region_without_layout cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) {
  // expected-error @+1 {{names a region, but the kernel has no shared layout}}
  %k = sched.shared_rows region(0) : !sched.kept<f32>
  sched.for_row_groups {
  }
}

// -----

sched.kernel @layout_without_region cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) shared(#sched.shared_layout<[<rows = 1, bytes = 4, vector_width = 4>]>) {
  // expected-error @+1 {{needs its region in the kernel's shared layout; run sched-allocate-shared}}
  %k = sched.shared_rows : !sched.kept<f32>
  sched.for_row_groups {
  }
}

// -----

sched.kernel @table_over_a_row cols(4096) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = shared>) shared(#sched.shared_layout<[<rows = 1, bytes = 4, vector_width = 4>, <rows = 1, bytes = 4, group = 128>]>) {
  %k = sched.shared_rows region(0) : !sched.kept<f32>
  // expected-error @+1 {{must take region 1, after the kept rows; got 0}}
  %t = sched.shared_groups group(128) region(0) : !sched.group_table<f32>
  sched.for_row_groups {
  }
}

// -----

// expected-error @+1 {{invalid shared layout: a region has 1 to 1024 rows, got 0}}
sched.kernel @layout_of_no_rows cols(4096) accumulate(f32) shared(#sched.shared_layout<[<rows = 0, bytes = 4, vector_width = 4>]>) {
}

// -----

// expected-error @+1 {{invalid shared layout: a region per group has groups of a power of two in [16, 1024] features and no vector width, got group 100, vector width 1}}
sched.kernel @layout_group cols(4096) accumulate(f32) shared(#sched.shared_layout<[<rows = 1, bytes = 4, group = 100>]>) {
}

// -----

// expected-error @+1 {{unknown region field 'offset'; expected rows, bytes, vector_width, features or group}}
sched.kernel @layout_field cols(4096) accumulate(f32) shared(#sched.shared_layout<[<rows = 1, offset = 4>]>) {
}
