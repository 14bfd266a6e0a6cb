// The finish kernel converts each column sum from the accumulate type to
// the stored one, whichever is wider.
// RUN: normc-opt %s --convert-sched-to-kern | FileCheck %s --check-prefix=LOOPS

// An f16 accumulation stored as bf16 goes through f32 (exact), and one
// stored as f32 widens: one loop for both sums.
// LOOPS-LABEL: kern.kernel @mixed_finish
// LOOPS:         kern.for_features {
// LOOPS-NEXT:      %[[H:.*]] = kern.sum_column %{{.*}} : !sched.partials<f16> -> f16
// LOOPS-NEXT:      %[[W:.*]] = arith.extf %[[H]] : f16 to f32
// LOOPS-NEXT:      %[[B:.*]] = arith.truncf %[[W]] : f32 to bf16
// LOOPS-NEXT:      kern.store_feature %[[B]], %{{.*}} : bf16, !sched.features<bf16>
// LOOPS-NEXT:      %[[H2:.*]] = kern.sum_column %{{.*}} : !sched.partials<f16> -> f16
// LOOPS-NEXT:      %[[F:.*]] = arith.extf %[[H2]] : f16 to f32
// LOOPS-NEXT:      kern.store_feature %[[F]], %{{.*}} : f32, !sched.features<f32>
// LOOPS-NEXT:    }
sched.kernel @mixed_finish accumulate(f16) schedule(#sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128, vector_width = 1, row_storage = global>) {
  %p = sched.buffer "dgamma_partials" : !sched.partials<f16>
  %q = sched.buffer "dbeta_partials" : !sched.partials<f16>
  %g = sched.buffer "dgamma" : !sched.features<bf16>
  %b = sched.buffer "dbeta" : !sched.features<f32>
  sched.sum_partials %p into %g : !sched.partials<f16>, !sched.features<bf16>
  sched.sum_partials %q into %b : !sched.partials<f16>, !sched.features<f32>
}
