//===- Passes.td - Transformations of the sched dialect ----*- tablegen -*-===//
#ifndef NORMC_SCHED_TRANSFORMS_PASSES
#define NORMC_SCHED_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def SchedAssignSchedule : Pass<"sched-assign-schedule", "mlir::ModuleOp"> {
  let summary = "Choose the GPU mapping of every kernel without one";
  let description = [{
    Fills in `schedule` on each `sched.kernel` that lacks it. Every option
    left at 0 (or empty) is chosen by the heuristic (normc::defaultSchedule
    in abi/include/normc/Abi/Schedule.h) from d and the element sizes.
    Options given explicitly are taken as they are and checked.
  }];
  let options = [
    Option<"rowsPerBlock", "rows-per-block", "int64_t", "0",
           "Rows one block owns (0: heuristic)">,
    Option<"threadsPerRow", "threads-per-row", "int64_t", "0",
           "Threads sharing one row (0: heuristic)">,
    Option<"vectorWidth", "vector-width", "int64_t", "0",
           "Elements per access (0: 128 bits of the widest type)">,
    Option<"rowStorage", "row-storage", "std::string", "\"\"",
           "registers | shared | global (empty: heuristic)">,
    Option<"strategy", "strategy", "std::string", "\"\"",
           "row_group | cluster (empty: heuristic)">,
    Option<"clusterSize", "cluster-size", "int64_t", "0",
           "Blocks of a cluster, for strategy cluster (0: heuristic)">,
    Option<"arch", "arch", "int", "0",
           "SM version of the target, e.g. 90 (0: unknown); the heuristic "
           "uses clusters on 90 and sizes shared memory by it">,
    Option<"overwrite", "overwrite", "bool", "false",
           "Replace schedules that are already set">
  ];
}

def SchedLowerToLoops : Pass<"sched-lower-to-loops", "mlir::ModuleOp"> {
  let summary = "Make the kernel's structure explicit: loops, storage, "
                "reductions and barriers";
  let description = [{
    Rewrites each scheduled row-level kernel into what the CUDA emitter
    prints op by op:

    - the loop over row groups (`sched.for_row_groups`);
    - where each row value read more than once (or by a reduction) lives:
      registers (`sched.alloc_row`), a region of the dynamic shared-memory
      layout (`sched.shared_rows`), or, with `row_storage = global`, nowhere:
      it is re-read from the buffer it was loaded from or stored to, and
      recomputed from its operands until then;
    - one `sched.for_chunks` pass per kept row, store and reduction, in
      which each value is read from its storage, loaded, or recomputed
      (`sched.load_chunk`, `sched.read_kept`, `sched.map_chunk`);
    - each reduction as a per-thread `sched.accumulator` (compensated in
      f32), a `sched.warp_sum`, and for rows wider than a warp the
      cross-warp step through `sched.shared_scratch` between two
      `sched.barrier`s;
    - with the cluster strategy, each reduction's per-block result
      exchanged through `sched.shared_cluster_slot` (`sched.cluster_write`,
      `sched.cluster_barrier`, `sched.cluster_sum`), each block of a
      cluster holding a slice of the row;
    - each per-group reduction (an fp8 output's block amax,
      `sched.accumulate_group_max`) in a table of `sched.shared_groups`,
      cleared (`sched.clear_group`), read back (`sched.read_group`) and
      stored (`sched.store_group`) between barriers;
    - each reduction across rows (`sched.reduce_rows`) as per-feature sums
      that only one thread touches (its registers, or its row group's row
      of the partials buffer), added to by `sched.accumulate_row` for every
      row of its row group and stored by `sched.store_partials`: one row of
      partials per row group of each block, which a later kernel adds in a
      fixed order.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def SchedAsyncCopies : Pass<"sched-async-copies", "mlir::ModuleOp"> {
  let summary = "Stage rows into shared memory with asynchronous copies";
  let description = [{
    In each lowered kernel, a row loaded from a buffer only to be kept in
    shared memory (`sched.load_chunk` whose one use is a `sched.keep` into
    a row of `sched.shared_rows`) is copied there by `sched.async_keep`
    instead, without passing through registers (cp.async on the GPU), in
    chunks of 4 to 64 bytes. One `sched.async_wait` goes before the first
    op of the row loop that uses a row still being copied (or at the end of
    the loop): each thread reads back only its own chunks, so no barrier is
    needed.
  }];
}

def SchedAllocateShared : Pass<"sched-allocate-shared", "mlir::ModuleOp"> {
  let summary = "Place every region of dynamic shared memory";
  let description = [{
    For each lowered kernel, gives each slot of `sched.shared_rows` and the
    table of `sched.shared_groups` a region of the kernel's `shared` layout,
    in that order, and sets the layout (`#sched.shared_layout`): the one
    place that decides offsets and the total the launch needs. Fails, on the
    kernel, when d is fixed and the layout and the static shared memory
    (`sched.shared_scratch`, `sched.shared_cluster_slot`) need more than a
    block can have. Kernels without dynamic shared memory get no layout.
    Running it again places the same regions.
  }];
}

#endif // NORMC_SCHED_TRANSFORMS_PASSES
