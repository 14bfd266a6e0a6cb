// Loads and stores declare their memory effects, so CSE merges two loads of
// a buffer with no store between them but not across a store to it.
// RUN: normc-opt %s --cse | FileCheck %s

// CHECK-LABEL: sched.kernel @in_place
// CHECK:         %[[A:.*]] = sched.load_row %[[X:.*]] : !sched.rows<f32>
// CHECK-NOT:     sched.load_row
// CHECK:         sched.store_row %{{.*}}, %[[X]]
// CHECK:         %[[C:.*]] = sched.load_row %[[X]] : !sched.rows<f32>
// CHECK:         sched.store_row %[[C]], %{{.*}}
sched.kernel @in_place accumulate(f32) {
  %x = sched.buffer "x" : !sched.rows<f32>
  %y = sched.buffer "y" : !sched.rows<f32>
  %a = sched.load_row %x : !sched.rows<f32>
  %b = sched.load_row %x : !sched.rows<f32>
  %twice = sched.map %a, %b : (!sched.row<f32>, !sched.row<f32>) -> !sched.row<f32> {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    sched.yield %s : f32
  }
  sched.store_row %twice, %x : !sched.row<f32>, !sched.rows<f32>
  %c = sched.load_row %x : !sched.rows<f32>
  sched.store_row %c, %y : !sched.row<f32>, !sched.rows<f32>
}
