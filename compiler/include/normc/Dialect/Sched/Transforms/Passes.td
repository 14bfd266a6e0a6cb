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

#endif // NORMC_SCHED_TRANSFORMS_PASSES
