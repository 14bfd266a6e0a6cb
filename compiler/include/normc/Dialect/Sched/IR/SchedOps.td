//===- SchedOps.td - Operations of the sched dialect -------*- tablegen -*-===//
#ifndef NORMC_SCHED_OPS
#define NORMC_SCHED_OPS

include "normc/Dialect/Sched/IR/SchedDialect.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "normc/Dialect/Sched/IR/SchedInterfaces.td"

//===----------------------------------------------------------------------===//
// The kernel and its buffers
//===----------------------------------------------------------------------===//

def Sched_KernelOp : Sched_Op<"kernel", [
    IsolatedFromAbove, NoTerminator, SingleBlock, Symbol, NoRegionArguments,
    Sched_RowScope, Sched_KernelInterface]> {
  let summary = "One GPU kernel, as a program run once per row";
  let description = [{
    The body is a straight-line program run once per row: buffers, whole-row
    values, per-row scalars and stores. `d` fixes d when present;
    otherwise d is a kernel argument. Arithmetic on rows runs in
    `accumulate`. The `schedule` is assigned by `sched-assign-schedule`;
    `convert-sched-to-kern` then makes a `kern.kernel` of it. `launch_order`
    places the kernel among the module's kernels: the runtime launches them
    in increasing order on one stream. A `reproducible` kernel reduces each
    row in an order that depends on d only: `sched-assign-schedule` gives
    it the heuristic's threads per row and vector width for d
    (normc::defaultRowShape) and refuses a request for any other, and
    its partial sums over rows are a fixed tiling of the rows (see
    `kern.kernel`'s `partial_rows`).

    Kernel arguments, in order: each `sched.buffer` (a pointer, followed by
    a 64-bit row stride for `!sched.rows`), then `rows` (64-bit) and `d`
    (32-bit).
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<I64Attr>:$d,
                       TypeAttrOf<Normc_AccumulateElement>:$accumulate,
                       OptionalAttr<Sched_ScheduleAttr>:$schedule,
                       DefaultValuedAttr<I64Attr, "0">:$launch_order,
                       UnitAttr:$reproducible);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name (`d` `(` $d^ `)`)? `accumulate` `(` $accumulate `)`
    (`reproducible` $reproducible^)?
    (`schedule` `(` qualified($schedule)^ `)`)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Sched_BufferOp : Sched_Op<"buffer"> {
  let summary = "A global-memory argument of the kernel";
  let description = [{
    Directly in a kernel of either level. Not `Pure`: a buffer is part of
    the kernel's signature and stays even when the body does not use it. Its name becomes a parameter of the
    emitted CUDA, so it must be a C identifier no emitted name collides with.
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs Sched_AnyBuffer:$result);
  let assemblyFormat = "$name attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Sched_YieldOp : Sched_Op<"yield", [Pure, Terminator,
    ParentOneOf<["MapOp", "ReduceOp", "ReduceRowsOp", "GroupMaxOp"]>]> {
  let summary = "The per-feature value of a map or reduction body";
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def Sched_FeatureCountOp : Sched_Op<"feature_count", [Pure]> {
  let summary = "k = max(1, floor(fraction * d)) as a 32-bit integer";
  let arguments = (ins F64Attr:$fraction);
  let results = (outs I32:$result);
  let assemblyFormat = "`fraction` $fraction attr-dict";
  let hasVerifier = 1;
}

def Sched_StoreStatOp : Sched_Op<"store_stat"> {
  let summary = "Stores a per-row scalar (once per row, by its first thread)";
  let arguments = (ins Normc_AccumulateElement:$value,
                       Arg<Sched_StatsType, "", [MemWrite]>:$dest);
  let assemblyFormat = [{
    $value `,` $dest attr-dict `:` type($value) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Per-row scalars (both levels) and whole rows (row level only)
//===----------------------------------------------------------------------===//

def Sched_LoadStatOp : Sched_Op<"load_stat"> {
  let summary = "Reads the current row's element of a per-row buffer";
  let description = [{
    A per-row scalar, as a backward reads the statistics a forward saved.
  }];
  let arguments = (ins Arg<Sched_StatsType, "", [MemRead]>:$source);
  let results = (outs Normc_AccumulateElement:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Sched_LoadScalarOp : Sched_Op<"load_scalar"> {
  let summary = "Reads the one element of a scalar buffer";
  let arguments = (ins Arg<Sched_ScalarType, "", [MemRead]>:$source);
  let results = (outs Normc_StorageElement:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Sched_LoadRowOp : Sched_Op<"load_row", [HasParent<"KernelOp">,
    TypesMatchWith<"row element type matches the buffer", "source", "result",
                   "::normc::sched::RowType::get($_self.getContext(), "
                   "::llvm::cast<::normc::sched::RowsType>($_self)"
                   ".getElementType())">]> {
  let summary = "Loads the current row of a buffer";
  let arguments = (ins Arg<Sched_RowsType, "", [MemRead]>:$source);
  let results = (outs Sched_RowType:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source))";
}

def Sched_MapOp : Sched_Op<"map", [HasParent<"KernelOp">,
    SingleBlock, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "An elementwise computation over the features of a row";
  let description = [{
    The body runs once per feature: its arguments are that feature's value
    of each operand (a row, or a per-feature buffer), per-row scalars are
    used from above, and it yields the feature's result in the row's
    element type. Arithmetic is `arith`/`math` on scalars; roundings are
    explicit `arith.truncf`/`arith.extf`. With `count`, features from count
    on are 0 (the gradient of statistics over a leading feature range).
    A map used more than once is kept between the passes that read it,
    unless it is marked `recompute`: then each pass computes it again from
    its operands (an fp8 output's y, which would take an f32 row of
    registers, is recomputed from the kept input).

    ```mlir
    %h = sched.map %x, %r : (!sched.row<bf16>, !sched.row<bf16>) -> !sched.row<bf16> {
    ^bb0(%a: bf16, %b: bf16):
      ...
      sched.yield %s : bf16
    }
    ```
  }];
  let arguments = (ins Variadic<Sched_RowOperand>:$inputs,
                       Optional<I32>:$count, UnitAttr:$recompute);
  let results = (outs Sched_RowType:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs (`count` $count^)? (`recompute` $recompute^)? attr-dict `:`
    functional-type($inputs, $result) $body
  }];
  let hasVerifier = 1;
}

def Sched_ReduceOp : Sched_Op<"reduce", [HasParent<"KernelOp">,
    SingleBlock,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Sum (or max) of a per-feature expression over count features";
  let description = [{
    The body, like `sched.map`'s, yields one term per feature in the
    kernel's accumulate type; the result is the sum of the terms of features
    [0, count), or with `combine(max)` the largest of them, NaN terms
    ignored, and at least 0 (an amax of magnitudes). Every thread of the
    row receives the total.
  }];
  let arguments = (ins Variadic<Sched_RowOperand>:$inputs, I32:$count,
                       Sched_CombineOrSum:$combine);
  let results = (outs Normc_AccumulateElement:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs `count` $count (`combine` `(` $combine^ `)`)? attr-dict `:`
    functional-type($inputs, $result) $body
  }];
  let hasVerifier = 1;
}

def Sched_GroupMaxOp : Sched_Op<"group_max", [HasParent<"KernelOp">,
    SingleBlock, Sched_GroupedInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Per feature, the largest term of its group of G features";
  let description = [{
    The body, like `sched.reduce`'s, yields one term per feature in the
    kernel's accumulate type. Feature i of the result is the largest term
    of features [g G, min((g + 1) G, d)), g = i / G, NaN terms ignored, and
    at least 0: each group's amax, the same for all its features (an fp8
    output's block scales).

    ```mlir
    %a = sched.group_max %y group(128) : (!sched.row<f32>) -> !sched.row<f32> {
    ^bb0(%v: f32):
      %m = math.absf %v : f32
      sched.yield %m : f32
    }
    ```
  }];
  let arguments = (ins Variadic<Sched_RowOperand>:$inputs, I64Attr:$group);
  let results = (outs Sched_RowType:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs `group` `(` $group `)` attr-dict `:`
    functional-type($inputs, $result) $body
  }];
  let hasVerifier = 1;
}

def Sched_StoreGroupsOp : Sched_Op<"store_groups", [HasParent<"KernelOp">,
    Sched_GroupedInterface]> {
  let summary = "Stores the first feature of each group of a row";
  let description = [{
    For a row whose features are the same within each group of G (a
    sched.group_max, or a map of one), dest[row, g] = value[g G].
  }];
  let arguments = (ins Sched_RowType:$value,
                       Arg<Sched_GroupsType, "", [MemWrite]>:$dest,
                       I64Attr:$group);
  let assemblyFormat = [{
    $value `,` $dest `group` `(` $group `)` attr-dict `:`
    qualified(type($value)) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Sched_StoreRowOp : Sched_Op<"store_row", [HasParent<"KernelOp">]> {
  let summary = "Stores a row into the current row of a buffer";
  let arguments = (ins Sched_RowType:$value,
                       Arg<Sched_RowsType, "", [MemWrite]>:$dest);
  let assemblyFormat = [{
    $value `,` $dest attr-dict `:` qualified(type($value)) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Sched_ReduceRowsOp : Sched_Op<"reduce_rows", [HasParent<"KernelOp">,
    SingleBlock,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Per-feature sums over rows: one partial row per block";
  let description = [{
    For every feature i, the sum over the rows a block processes of the
    body's term is written to row blockIdx.x of `partials`. The sum runs in
    the partials' element type, an accumulate type that may be wider than
    the kernel's (a spec's `accumulate_rows`). Each block adds its rows in
    a fixed order and combines its row groups in a fixed order, so the
    partials, and a `sched.sum_partials` of them in a later kernel, are the
    same bits on every run of the same grid: what dgamma and dbeta need.
  }];
  let arguments = (ins Variadic<Sched_RowOperand>:$inputs,
                       Sched_PartialsType:$partials);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs `into` $partials attr-dict `:` `(` type($inputs) `)` `->`
    qualified(type($partials)) $body
  }];
  let hasVerifier = 1;
}

def Sched_ReduceStatRowsOp : Sched_Op<"reduce_stat_rows", [
    HasParent<"KernelOp">]> {
  let summary = "The sum of a per-row scalar over rows: one partial per block";
  let description = [{
    For the rows each row group of a block processes, the sum of `value`,
    in the partials' element type, goes to column 0 of its row of
    `partials` (the rest of the row is unused): added by one thread in
    row order, so the partials, and the `sched.sum_partials` of them into
    a scalar in a later kernel, are the same bits on every run of the same
    grid, as `sched.reduce_rows`'s are. A scalar parameter's gradient
    (Dynamic Tanh's dalpha), from the per-row sums over its features.

    ```mlir
    sched.reduce_stat_rows %s into %p : f32, !sched.partials<f32>
    ```
  }];
  let arguments = (ins Normc_AccumulateElement:$value,
                       Arg<Sched_PartialsType, "", [MemWrite]>:$partials);
  let assemblyFormat = [{
    $value `into` $partials attr-dict `:` type($value) `,`
    qualified(type($partials))
  }];
  let hasVerifier = 1;
}

def Sched_SumPartialsOp : Sched_Op<"sum_partials", [HasParent<"KernelOp">]> {
  let summary = "out[i] = sum over the rows of partials, in order";
  let description = [{
    The whole body of a kernel that runs after the one that wrote the
    partials: its `rows` argument is the number of partial rows. Each
    feature adds the partial rows in increasing order (`compensated`: with
    TwoSum's error terms) and rounds once to the output's type; at the
    kernel level the threads' mapping is `kern.for_features` and the sum
    `kern.sum_column`. Into a scalar the sum is of column 0 (the partials
    of a `sched.reduce_stat_rows`).
  }];
  let arguments = (ins Arg<Sched_PartialsType, "", [MemRead]>:$partials,
                       Arg<AnyTypeOf<[Sched_FeaturesType, Sched_ScalarType]>,
                           "", [MemWrite]>:$dest,
                       UnitAttr:$compensated);
  let assemblyFormat = [{
    $partials `into` $dest (`compensated` $compensated^)? attr-dict `:` qualified(type($partials)) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

#endif // NORMC_SCHED_OPS
