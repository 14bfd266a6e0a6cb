//===- Passes.td - Transformations of the sched dialect ----*- tablegen -*-===//
#ifndef NORMC_SCHED_TRANSFORMS_PASSES
#define NORMC_SCHED_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def SchedAssignSchedule : Pass<"sched-assign-schedule", "mlir::ModuleOp"> {
  let summary = "Choose the GPU mapping of every kernel without one";
  let description = [{
    Fills in `schedule` on each `sched.kernel` that lacks it. Every option
    left at 0 (or empty) is chosen by a heuristic from d and the element
    sizes: 128-bit accesses, at most a few vectors per thread, rows kept in
    registers when d is fixed and small enough, else re-read from global
    memory. Options given explicitly are taken as they are and checked.
  }];
  let options = [
    Option<"rowsPerBlock", "rows-per-block", "int64_t", "0",
           "Rows one block owns (0: heuristic)">,
    Option<"threadsPerRow", "threads-per-row", "int64_t", "0",
           "Threads sharing one row (0: heuristic)">,
    Option<"vectorWidth", "vector-width", "int64_t", "0",
           "Elements per access (0: 128 bits of the input type)">,
    Option<"rowStorage", "row-storage", "std::string", "\"\"",
           "registers | shared | global (empty: heuristic)">,
    Option<"overwrite", "overwrite", "bool", "false",
           "Replace schedules that are already set">
  ];
}

#endif // NORMC_SCHED_TRANSFORMS_PASSES
