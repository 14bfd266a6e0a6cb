// RUN: normc-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{threads_per_row must be a power of two in [1, 1024], got 96}}
sched.kernel @threads accumulate(f32) schedule(#sched.schedule<rows_per_block = 1, threads_per_row = 96, vector_width = 4, row_storage = global>) {
}

// -----

// expected-error @+1 {{a block must hold whole warps, got 16 threads}}
sched.kernel @partial_warp accumulate(f32) schedule(#sched.schedule<rows_per_block = 1, threads_per_row = 16, vector_width = 4, row_storage = global>) {
}

// -----

// expected-error @+1 {{rows_per_block * threads_per_row must be in [1, 1024], got 8 * 256}}
sched.kernel @big_block accumulate(f32) schedule(#sched.schedule<rows_per_block = 8, threads_per_row = 256, vector_width = 4, row_storage = global>) {
}

// -----

// expected-error @+1 {{row_storage = registers needs cols fixed at compile time}}
sched.kernel @registers_dynamic accumulate(f32) schedule(#sched.schedule<rows_per_block = 1, threads_per_row = 256, vector_width = 4, row_storage = registers>) {
}

// -----

// expected-error @+1 {{vector_width 8 exceeds 128 bits for buffer 'x' of 'f32'}}
sched.kernel @wide accumulate(f32) schedule(#sched.schedule<rows_per_block = 1, threads_per_row = 256, vector_width = 8, row_storage = global>) {
  %x = sched.buffer "x" : !sched.rows<f32>
}

// -----

sched.kernel @store_type accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %y = sched.buffer "y" : !sched.rows<bf16>
  %row = sched.load_row %x : !sched.rows<f32>
  // expected-error @+1 {{row of 'f32' cannot be stored into a buffer of 'bf16'}}
  sched.store_row %row, %y : !sched.row<f32>, !sched.rows<bf16>
}

// -----

sched.kernel @center_on_sum accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %row = sched.load_row %x : !sched.rows<f32>
  %k = sched.feature_count fraction 1.0
  %c = arith.constant 0.0 : f32
  // expected-error @+1 {{only sum_squares takes a center}}
  %s = sched.reduce sum %row, %k center %c : f32 : !sched.row<f32> -> f32
}

// -----

sched.kernel @zero_fraction accumulate(f32) {
  // expected-error @+1 {{fraction must be in (0, 1], got 0}}
  %k = sched.feature_count fraction 0.0
}

// -----

sched.kernel @duplicate accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
  // expected-error @+1 {{duplicate buffer 'x'}}
  %y = sched.buffer "x" : !sched.rows<f32>
}

// -----

sched.kernel @stat_type accumulate(f64) {
  %st = sched.buffer "rstd" : !sched.stats<f32>
  %c = arith.constant 1.0 : f64
  // expected-error @+1 {{value of type 'f64' cannot be stored into stats of 'f32'}}
  sched.store_stat %c, %st : f64, !sched.stats<f32>
}
