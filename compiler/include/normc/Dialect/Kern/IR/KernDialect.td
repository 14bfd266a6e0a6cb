//===- KernDialect.td - The kernel-level dialect -----------*- tablegen -*-===//
//
// The `kern` dialect is the kernel level (after convert-sched-to-kern): the
// loop over row groups, the per-thread chunk loops, where each kept row
// lives (registers or shared memory), per-thread accumulators, warp
// shuffles, the cross-warp and cluster steps and their barriers, the loop
// that adds the partial sums of an earlier kernel, and the shared-memory
// layout. It uses the `sched` dialect's types, buffers and per-row scalar
// ops. The CUDA emitter prints this level op by op and decides nothing.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_KERN_DIALECT
#define NORMC_KERN_DIALECT

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "normc/Dialect/Sched/IR/SchedDialect.td"

def Kern_Dialect : Dialect {
  let name = "kern";
  let summary = "Kernel-level dialect: what a CUDA kernel does, step by step";
  let cppNamespace = "::normc::kern";
  let dependentDialects = ["::normc::sched::SchedDialect"];
  let useDefaultAttributePrinterParser = 1;
}

class Kern_Op<string mnemonic, list<Trait> traits = []>
    : Op<Kern_Dialect, mnemonic, traits>;

def Kern_SharedLayoutAttr : AttrDef<Kern_Dialect, "SharedLayout"> {
  let mnemonic = "shared_layout";
  let summary = "Where a kernel keeps values in dynamic shared memory";
  let description = [{
    Holds a `normc::SharedLayout` (abi/include/normc/Abi/SharedLayout.h),
    placed by `kern-allocate-shared`: regions one after another, each
    starting 16-byte aligned after the one before. A region holds `rows`
    rows (one per row of the block's row group) of `bytes`-byte elements: the
    block's features (d, or `features` when fixed: a cluster's slice) padded
    to whole vectors of `vector_width`, or one element per `group` features.

    ```mlir
    #kern.shared_layout<[<rows = 2, bytes = 2, vector_width = 8>,
                          <rows = 2, bytes = 4, group = 64>]>
    ```

    Region i starts at `sum_{j < i} round_up(rows_j * pitch_j * bytes_j,
    16)`; the launch needs the sum over all regions. The emitter, the launch
    facts and the verifier read the offsets and the total from here.
  }];
  let parameters = (ins "::normc::SharedLayout":$value);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // NORMC_KERN_DIALECT
