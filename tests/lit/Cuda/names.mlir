// RUN: bash -c '%normc compile %s --emit=cuda; test $? -eq 1' 2>&1 | FileCheck %s

sched.kernel @clash d(64) accumulate(f32) {
  // CHECK: names.mlir:[[# @LINE + 1]]:8: error: 'sched.buffer' op name 'row' is a local of every emitted kernel
  %x = sched.buffer "row" : !sched.rows<f32>
}
