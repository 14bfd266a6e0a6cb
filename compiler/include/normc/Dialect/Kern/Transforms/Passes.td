//===- Passes.td - Transformations of the kern dialect -----*- tablegen -*-===//
#ifndef NORMC_KERN_TRANSFORMS_PASSES
#define NORMC_KERN_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def KernAsyncCopies : Pass<"kern-async-copies", "mlir::ModuleOp"> {
  let summary = "Stage rows into shared memory with asynchronous copies";
  let description = [{
    In each lowered kernel, a row loaded from a buffer only to be kept in
    shared memory (`kern.load_chunk` whose one use is a `kern.keep` into
    a row of `kern.shared_rows`) is copied there by `kern.async_keep`
    instead, without passing through registers (cp.async on the GPU), in
    chunks of 4 to 64 bytes. One `kern.async_wait` goes before the first
    op of the row loop that uses a row still being copied (or at the end of
    the loop): each thread reads back only its own chunks, so no barrier is
    needed.
  }];
}

def KernAllocateShared : Pass<"kern-allocate-shared", "mlir::ModuleOp"> {
  let summary = "Place every region of dynamic shared memory";
  let description = [{
    For each lowered kernel, gives each slot of `kern.shared_rows` and the
    table of `kern.shared_groups` a region of the kernel's `shared` layout,
    in that order, and sets the layout (`#kern.shared_layout`): the one
    place that decides offsets and the total the launch needs. Fails, on the
    kernel, when d is fixed and the layout and the static shared memory
    (`kern.shared_scratch`, `kern.shared_cluster_slot`) need more than a
    block can have. Kernels without dynamic shared memory get no layout.
    Running it again places the same regions.
  }];
}

#endif // NORMC_KERN_TRANSFORMS_PASSES
