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
// expected-error @+1 {{row_storage = registers needs d fixed at compile time}}
sched.kernel @registers_dynamic accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = registers>) {
}

// -----
// expected-error @+1 {{row_storage = registers would keep 256 vectors per thread (at most 32); use more threads per row or another row_storage}}
sched.kernel @too_wide_for_registers d(65536) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 64, vector_width = 4, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<f32>
}

// -----
// expected-error @+1 {{row_storage = registers would keep 32 registers a thread, more than the 8 a block of 1024 threads leaves; use another row_storage}}
sched.kernel @spills d(65536) accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 1024, vector_width = 8, row_storage = registers>) {
  %x = sched.buffer "x" : !sched.rows<bf16>
}

// -----
// expected-error @+1 {{vector_width 8 exceeds 128 bits for 32-bit elements}}
sched.kernel @wide accumulate(f32) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 256, vector_width = 8, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
}

// -----
// expected-error @+1 {{d must be in [1, 16777216], got 0}}
sched.kernel @zero_d d(0) accumulate(f32) {
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
  // expected-error @+1 {{element type must be f32, f16, bf16, f8E4M3FN, f8E5M2 or i8, got 'i16'}}
  %x = sched.buffer "x" : !sched.rows<i16>
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
  // expected-error @+1 {{'math.log' op cannot be emitted as CUDA}}
  %b = math.log %a : f32
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
sched.kernel @scalar_of_another_type accumulate(f32) {
  %s = sched.buffer "s" : !sched.scalar<f32>
  // expected-error @+1 {{reads a scalar of 'f32' as 'bf16'}}
  %v = sched.load_scalar %s : !sched.scalar<f32> -> bf16
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
sched.kernel @groups_without_a_size accumulate(f32) {
  // expected-error @+1 {{is a [rows, groups] buffer, but no op of the kernel gives a group size}}
  %s = sched.buffer "scale" : !sched.groups<f32>
}

// -----
// expected-error @+1 {{invalid schedule: cluster_size must be a power of two in [2, 8], got 16}}
sched.kernel @cluster_too_large d(4096) accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 16, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
}

// -----
// expected-error @+1 {{invalid schedule: strategy cluster needs d fixed at compile time}}
sched.kernel @cluster_without_d accumulate(f32) schedule(#sched.schedule<cluster, cluster_size = 2, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
}

// -----
// expected-error @+1 {{malformed schedule}}
sched.kernel @cluster_size_of_a_row_group d(4096) accumulate(f32) schedule(#sched.schedule<row_group, cluster_size = 2, rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = global>) {
}

// -----
// Kernel-level ops belong in a kern.kernel.
sched.kernel @kernel_level_op accumulate(f32) {
  // expected-error @+1 {{expects parent op to be one of 'kern.kernel, kern.for_row_groups'}}
  kern.barrier
}
