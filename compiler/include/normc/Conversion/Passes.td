//===- Passes.td - Conversions between normc dialects ------*- tablegen -*-===//
#ifndef NORMC_CONVERSION_PASSES
#define NORMC_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertNormToSched : Pass<"convert-norm-to-sched", "mlir::ModuleOp"> {
  let summary = "Lower each norm.spec to a sched.kernel";
  let description = [{
    Turns the tensor dataflow of a spec into the row program of a kernel:
    buffers in ABI order, row loads and stores, row reductions, and the
    per-row scalar math (mean, variance divisor, epsilon placement) as
    `arith`/`math` ops. The schedule is left unset; `sched-assign-schedule`
    chooses it.
  }];
  let dependentDialects = ["::normc::sched::SchedDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def ConvertSchedToKern : Pass<"convert-sched-to-kern", "mlir::ModuleOp"> {
  let summary = "Make the kernel's structure explicit: loops, storage, "
                "reductions and barriers";
  let description = [{
    Rewrites each scheduled `sched.kernel` into a `kern.kernel`, what the
    CUDA emitter prints op by op:

    - the loop over row groups (`kern.for_row_groups`);
    - where each row value read more than once (or by a reduction) lives:
      registers (`kern.alloc_row`), a region of the dynamic shared-memory
      layout (`kern.shared_rows`), or, with `row_storage = global`, nowhere:
      it is re-read from the buffer it was loaded from or stored to, and
      recomputed from its operands until then;
    - one `kern.for_chunks` pass per kept row, store and reduction, in
      which each value is read from its storage, loaded, or recomputed
      (`kern.load_chunk`, `kern.read_kept`, `kern.map_chunk`);
    - each reduction as a per-thread `kern.accumulator` (compensated in
      f32), a `kern.warp_sum`, and for rows wider than a warp the
      cross-warp step through `kern.shared_scratch` between two
      `kern.barrier`s;
    - with the cluster strategy, each reduction's per-block result
      exchanged through `kern.shared_cluster_slot` (`kern.cluster_write`,
      `kern.cluster_barrier`, `kern.cluster_sum`), each block of a
      cluster holding a slice of the row;
    - each per-group reduction (an fp8 output's block amax,
      `kern.accumulate_group_max`) in a table of `kern.shared_groups`,
      cleared (`kern.clear_group`), read back (`kern.read_group`) and
      stored (`kern.store_group`) between barriers;
    - each reduction across rows (`sched.reduce_rows`) as per-feature sums
      that only one thread touches (its registers, or its row group's row
      of the partials buffer), added to by `kern.accumulate_row` for every
      row of its row group and stored by `kern.store_partials`: one row of
      partials per row group of each block, which a later kernel adds in a
      fixed order.
  }];
  let dependentDialects = ["::normc::kern::KernDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // NORMC_CONVERSION_PASSES
