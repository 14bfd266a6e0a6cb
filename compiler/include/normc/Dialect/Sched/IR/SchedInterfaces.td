//===- SchedInterfaces.td - What both levels' ops share ----*- tablegen -*-===//
//
// The row level (`sched`) and the kernel level (`kern`) each have a kernel
// op; the buffers and per-row scalar ops of `sched`, which both levels use,
// find their kernel and the scope they run in through these.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_SCHED_INTERFACES
#define NORMC_SCHED_INTERFACES

include "mlir/IR/OpBase.td"

def Sched_KernelInterface : OpInterface<"KernelInterface"> {
  let description = [{
    One GPU kernel: it holds the `sched.buffer`s (its arguments) and fixes
    the type its arithmetic runs in and, when known, d.
  }];
  let cppNamespace = "::normc::sched";
  let methods = [
    InterfaceMethod<"The type every reduction and per-row scalar uses",
                    "::mlir::Type", "getKernelAccumulate", (ins),
                    [{ return $_op.getAccumulate(); }]>,
    InterfaceMethod<"d, when fixed at compile time",
                    "std::optional<uint64_t>", "getKernelD", (ins),
                    [{ return $_op.getD(); }]>,
  ];
}

def Sched_GroupedInterface : OpInterface<"GroupedOpInterface"> {
  let description = [{
    An op with a value per group of G consecutive features of a row (an
    fp8 output's block scales). A kernel has one G.
  }];
  let cppNamespace = "::normc::sched";
  let methods = [
    InterfaceMethod<"G, the features of a group", "uint64_t", "getGroupSize",
                    (ins), [{ return $_op.getGroup(); }]>,
  ];
}

// The op's body runs once for each row (a row-level kernel, or the row
// loop of a kernel-level one): what reads or writes "the current row" of a
// per-row buffer belongs directly in it.
def Sched_RowScope : NativeOpTrait<"RowScope"> {
  let cppNamespace = "::normc::sched";
}

#endif // NORMC_SCHED_INTERFACES
