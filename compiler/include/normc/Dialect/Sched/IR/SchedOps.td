//===- SchedOps.td - Operations of the sched dialect -------*- tablegen -*-===//
#ifndef NORMC_SCHED_OPS
#define NORMC_SCHED_OPS

include "normc/Dialect/Sched/IR/SchedDialect.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// The kernel and its buffers
//===----------------------------------------------------------------------===//

def Sched_KernelOp : Sched_Op<"kernel", [
    IsolatedFromAbove, NoTerminator, SingleBlock, Symbol, NoRegionArguments]> {
  let summary = "One GPU kernel";
  let description = [{
    At row level the body is a straight-line program run once per row; after
    `sched-lower-to-loops` it holds the buffers, the shared-memory layout and
    one `sched.for_row_groups`. `cols` fixes d when present; otherwise d is
    a kernel argument. Arithmetic on rows runs in `accumulate`. The
    `schedule` is assigned by `sched-assign-schedule`, the `shared` layout
    by `sched-allocate-shared`. `launch_order` places
    the kernel among the module's kernels: the runtime launches them in
    increasing order on one stream.

    Kernel arguments, in order: each `sched.buffer` (a pointer, followed by
    a 64-bit row stride for `!sched.rows`), then `rows` (64-bit) and `d`
    (32-bit).
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<I64Attr>:$cols,
                       TypeAttrOf<Sched_AccumulateFloat>:$accumulate,
                       OptionalAttr<Sched_ScheduleAttr>:$schedule,
                       OptionalAttr<Sched_SharedLayoutAttr>:$shared_layout,
                       DefaultValuedAttr<I64Attr, "0">:$launch_order);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name (`cols` `(` $cols^ `)`)? `accumulate` `(` $accumulate `)`
    (`schedule` `(` qualified($schedule)^ `)`)?
    (`shared` `(` qualified($shared_layout)^ `)`)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// True once sched-lower-to-loops has made the structure explicit.
    bool isLowered();
  }];
}

def Sched_BufferOp : Sched_Op<"buffer", [HasParent<"KernelOp">]> {
  let summary = "A global-memory argument of the kernel";
  let description = [{
    Not `Pure`: a buffer is part of the kernel's signature and stays even
    when the body does not use it. Its name becomes a parameter of the
    emitted CUDA, so it must be a C identifier no emitted name collides with.
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs Sched_AnyBuffer:$result);
  let assemblyFormat = "$name attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Sched_YieldOp : Sched_Op<"yield", [Pure, Terminator,
    ParentOneOf<["MapOp", "ReduceOp", "ReduceRowsOp", "MapChunkOp",
                 "AccumulateOp", "AccumulateRowOp", "GroupMaxOp",
                 "AccumulateGroupMaxOp"]>]> {
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
  let arguments = (ins Sched_AccumulateFloat:$value,
                       Arg<Sched_StatsType, "", [MemWrite]>:$dest);
  let assemblyFormat = [{
    $value `,` $dest attr-dict `:` type($value) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Row level: whole rows, generic maps and reductions
//===----------------------------------------------------------------------===//

def Sched_LoadStatOp : Sched_Op<"load_stat"> {
  let summary = "Reads the current row's element of a per-row buffer";
  let description = [{
    A per-row scalar, as a backward reads the statistics a forward saved.
  }];
  let arguments = (ins Arg<Sched_StatsType, "", [MemRead]>:$source);
  let results = (outs Sched_AccumulateFloat:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Sched_LoadScalarOp : Sched_Op<"load_scalar"> {
  let summary = "Reads the one element of a scalar buffer";
  let arguments = (ins Arg<Sched_ScalarType, "", [MemRead]>:$source);
  let results = (outs Sched_AccumulateFloat:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Sched_LoadRowOp : Sched_Op<"load_row", [
    TypesMatchWith<"row element type matches the buffer", "source", "result",
                   "::normc::sched::RowType::get($_self.getContext(), "
                   "::llvm::cast<::normc::sched::RowsType>($_self)"
                   ".getElementType())">]> {
  let summary = "Loads the current row of a buffer";
  let arguments = (ins Arg<Sched_RowsType, "", [MemRead]>:$source);
  let results = (outs Sched_RowType:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source))";
}

def Sched_MapOp : Sched_Op<"map", [
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

def Sched_ReduceOp : Sched_Op<"reduce", [
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
  let results = (outs Sched_AccumulateFloat:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs `count` $count (`combine` `(` $combine^ `)`)? attr-dict `:`
    functional-type($inputs, $result) $body
  }];
  let hasVerifier = 1;
}

def Sched_GroupMaxOp : Sched_Op<"group_max", [
    SingleBlock,
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

def Sched_StoreGroupsOp : Sched_Op<"store_groups"> {
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

def Sched_StoreRowOp : Sched_Op<"store_row"> {
  let summary = "Stores a row into the current row of a buffer";
  let arguments = (ins Sched_RowType:$value,
                       Arg<Sched_RowsType, "", [MemWrite]>:$dest);
  let assemblyFormat = [{
    $value `,` $dest attr-dict `:` qualified(type($value)) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Sched_ReduceRowsOp : Sched_Op<"reduce_rows", [SingleBlock,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Per-feature sums over rows: one partial row per block";
  let description = [{
    For every feature i, the sum over the rows a block processes of the
    body's term (in the accumulate type) is written to row blockIdx.x of
    `partials`. Each block adds its rows in a fixed order and combines its
    row groups in a fixed order, so the partials, and a `sched.sum_partials`
    of them in a later kernel, are the same bits on every run of the same
    grid: what dgamma and dbeta need.
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

def Sched_SumPartialsOp : Sched_Op<"sum_partials", [HasParent<"KernelOp">]> {
  let summary = "out[i] = sum over the rows of partials, in order";
  let description = [{
    The whole body of a kernel that runs after the one that wrote the
    partials: its `rows` argument is the number of partial rows. Threads
    stride over the features; each adds the partial rows in increasing
    order (`compensated`: with TwoSum's error terms, as a compensated
    sched.accumulator) and rounds once to the output's type.
  }];
  let arguments = (ins Arg<Sched_PartialsType, "", [MemRead]>:$partials,
                       Arg<Sched_FeaturesType, "", [MemWrite]>:$dest,
                       UnitAttr:$compensated);
  let assemblyFormat = [{
    $partials `into` $dest (`compensated` $compensated^)? attr-dict `:` qualified(type($partials)) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Kernel level: loops, storage, reductions across threads
//===----------------------------------------------------------------------===//

def Sched_SharedRowsOp : Sched_Op<"shared_rows", [HasParent<"KernelOp">,
    MemoryEffects<[MemAlloc]>]> {
  let summary = "Rows kept in dynamic shared memory: a region per slot";
  let description = [{
    Slot i holds rows_per_block rows of its element type, each the block's
    features padded to whole vectors, in region `region + i` of the
    kernel's `shared` layout (placed by `sched-allocate-shared`).
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$region);
  let results = (outs Variadic<Sched_KeptType>:$slots);
  let assemblyFormat = [{
    (`region` `(` $region^ `)`)? attr-dict `:` qualified(type($slots))
  }];
  let hasVerifier = 1;
}

def Sched_SharedScratchOp : Sched_Op<"shared_scratch", [
    HasParent<"KernelOp">, MemoryEffects<[MemAlloc]>]> {
  let summary = "Static shared memory for cross-warp sums: warps slots a row";
  let arguments = (ins I64Attr:$warps);
  let results = (outs Sched_ScratchType:$result);
  let assemblyFormat = [{
    `warps` `(` $warps `)` attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Sched_SharedGroupsOp : Sched_Op<"shared_groups", [HasParent<"KernelOp">,
    MemoryEffects<[MemAlloc]>]> {
  let summary = "Dynamic shared memory for a value per group of each row";
  let description = [{
    rows_per_block rows of ceil(d / G) elements in region `region` of the
    kernel's `shared` layout, after the regions of `sched.shared_rows`.
    Each row group uses its own row of the table.
  }];
  let arguments = (ins I64Attr:$group, OptionalAttr<I64Attr>:$region);
  let results = (outs Sched_GroupTableType:$result);
  let assemblyFormat = [{
    `group` `(` $group `)` (`region` `(` $region^ `)`)? attr-dict `:`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Sched_ForRowGroupsOp : Sched_Op<"for_row_groups", [HasParent<"KernelOp">,
    NoTerminator, SingleBlock, NoRegionArguments,
    RecursiveMemoryEffects]> {
  let summary = "Blocks stride over groups of rows_per_block rows";
  let description = [{
    Each group of threads_per_row threads owns one row of the group. Threads
    of a row past the end load zeros and store nothing, but still take part
    in the block's barriers.
  }];
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
}

def Sched_ForChunksOp : Sched_Op<"for_chunks", [NoTerminator, SingleBlock,
    NoRegionArguments, ParentOneOf<["KernelOp", "ForRowGroupsOp"]>,
    RecursiveMemoryEffects]> {
  let summary = "A pass of this thread over its chunks of the row";
  let description = [{
    Chunk j of a thread starts at feature (j * threads_per_row + lane) *
    vector_width; every pass maps the same features to the same thread.
    With `unrolled(n)` the loop runs exactly n chunks, fully unrolled (what
    register-kept rows need), else up to d. Outside the row loop a pass may
    touch only storage and per-feature buffers.
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$unrolled);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`unrolled` `(` $unrolled^ `)`)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

def Sched_AllocRowOp : Sched_Op<"alloc_row", [
    ParentOneOf<["ForRowGroupsOp", "KernelOp"]>, MemoryEffects<[MemAlloc]>]> {
  let summary = "Registers for one row value: vectors chunks of this thread";
  let description = [{
    In the row loop, a row value kept between passes; before it, sums over
    the rows this thread handles (the same features in every row).
  }];
  let arguments = (ins I64Attr:$vectors);
  let results = (outs Sched_KeptType:$result);
  let assemblyFormat = [{
    `vectors` `(` $vectors `)` attr-dict `:` qualified(type($result))
  }];
}

def Sched_LoadChunkOp : Sched_Op<"load_chunk", [HasParent<"ForChunksOp">]> {
  let summary = "Loads this thread's chunk of the current row or of a vector";
  let description = [{
    One access of vector_width elements where the chunk is whole and the
    address aligned, element by element otherwise; zeros past d (and for
    rows past the end).
  }];
  let arguments = (ins Arg<Sched_ChunkSource, "", [MemRead]>:$source);
  let results = (outs Sched_ChunkType:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Sched_StoreChunkOp : Sched_Op<"store_chunk", [HasParent<"ForChunksOp">]> {
  let summary = "Stores this thread's chunk into the current row of a buffer";
  let arguments = (ins Sched_ChunkType:$value,
                       Arg<Sched_RowsType, "", [MemWrite]>:$dest);
  let assemblyFormat = [{
    $value `,` $dest attr-dict `:` qualified(type($value)) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Sched_KeepOp : Sched_Op<"keep", [HasParent<"ForChunksOp">]> {
  let summary = "Writes this thread's chunk of a kept row";
  let arguments = (ins Sched_ChunkType:$value,
                       Arg<Sched_KeptType, "", [MemWrite]>:$dest);
  let assemblyFormat = [{
    $value `,` $dest attr-dict `:` qualified(type($value)) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Sched_AsyncKeepOp : Sched_Op<"async_keep", [HasParent<"ForChunksOp">]> {
  let summary = "Copies this thread's chunk of a row into shared memory, "
                "asynchronously";
  let description = [{
    The chunk of the current row of `source` goes to its place in the kept
    row `dest` (a region of `sched.shared_rows`) without passing through
    registers: `cp.async` from sm_80 on, for whole aligned chunks of 4 to 64
    bytes. The thread must wait for it (`sched.async_wait`) before it reads
    `dest`, writes it again, or ends the row.
  }];
  let arguments = (ins Arg<Sched_RowsType, "", [MemRead]>:$source,
                       Arg<Sched_KeptType, "", [MemWrite]>:$dest);
  let assemblyFormat = [{
    $source `,` $dest attr-dict `:` qualified(type($source)) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Sched_AsyncWaitOp : Sched_Op<"async_wait", [HasParent<"ForRowGroupsOp">]> {
  let summary = "Waits for this thread's asynchronous copies "
                "(cp.async.wait_all)";
  let description = [{
    Every `sched.async_keep` of this thread before it has landed after it.
    Each thread reads back only its own chunks, so no barrier is needed.
  }];
  let assemblyFormat = "attr-dict";
}

def Sched_ReadKeptOp : Sched_Op<"read_kept", [HasParent<"ForChunksOp">]> {
  let summary = "Reads this thread's chunk of a kept row";
  let arguments = (ins Arg<Sched_KeptType, "", [MemRead]>:$source);
  let results = (outs Sched_ChunkType:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Sched_MapChunkOp : Sched_Op<"map_chunk", [Pure, HasParent<"ForChunksOp">,
    SingleBlock, AttrSizedOperandSegments]> {
  let summary = "sched.map on the features of this thread's chunk";
  let arguments = (ins Variadic<Sched_ChunkType>:$inputs,
                       Optional<I32>:$count);
  let results = (outs Sched_ChunkType:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs (`count` $count^)? attr-dict `:` functional-type($inputs, $result)
    $body
  }];
  let hasVerifier = 1;
}

def Sched_ClearGroupOp : Sched_Op<"clear_group", [HasParent<"ForChunksOp">]> {
  let summary = "The chunk that starts a group sets its table slot to 0";
  let arguments = (ins Arg<Sched_GroupTableType, "", [MemWrite]>:$table);
  let assemblyFormat = "$table attr-dict `:` qualified(type($table))";
}

def Sched_AccumulateGroupMaxOp : Sched_Op<"accumulate_group_max", [
    HasParent<"ForChunksOp">, SingleBlock]> {
  let summary = "Raises this chunk's group slot to the chunk's largest term";
  let description = [{
    The largest body term of the chunk's features below d (NaN ignored, at
    least 0), combined into its group's slot by an atomic maximum: the
    order in which threads arrive does not change the result.
  }];
  let arguments = (ins Arg<Sched_GroupTableType, "", [MemRead, MemWrite]>:$table,
                       Variadic<Sched_ChunkType>:$inputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $table (`,` $inputs^)? attr-dict `:` qualified(type($table))
    (`,` qualified(type($inputs))^)? $body
  }];
  let hasVerifier = 1;
}

def Sched_ReadGroupOp : Sched_Op<"read_group", [HasParent<"ForChunksOp">]> {
  let summary = "This chunk's group slot, as every element of a chunk";
  let arguments = (ins Arg<Sched_GroupTableType, "", [MemRead]>:$table);
  let results = (outs Sched_ChunkType:$result);
  let assemblyFormat = [{
    $table attr-dict `:` qualified(type($table)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Sched_StoreGroupOp : Sched_Op<"store_group", [HasParent<"ForChunksOp">]> {
  let summary = "The chunk that starts a group stores its first element";
  let description = [{
    dest[row, c / G] = value[0] when the chunk's first feature c is a
    multiple of G below d, for rows below `rows`.
  }];
  let arguments = (ins Sched_ChunkType:$value,
                       Arg<Sched_GroupsType, "", [MemWrite]>:$dest,
                       I64Attr:$group);
  let assemblyFormat = [{
    $value `,` $dest `group` `(` $group `)` attr-dict `:`
    qualified(type($value)) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Sched_AccumulatorOp : Sched_Op<"accumulator", [
    HasParent<"ForRowGroupsOp">, MemoryEffects<[MemAlloc]>]> {
  let summary = "A per-thread running sum (or max), zero at each row's start";
  let description = [{
    `compensated` keeps a second term with the rounding error of each
    addition (Knuth's TwoSum), so that the sum of a row whose mean is
    large against its spread stays accurate. With `combine(max)` it keeps
    the largest term instead (see sched.reduce).
  }];
  let arguments = (ins UnitAttr:$compensated, Sched_CombineOrSum:$combine);
  let results = (outs Sched_AccumulatorType:$result);
  let assemblyFormat = [{
    (`compensated` $compensated^)? (`combine` `(` $combine^ `)`)? attr-dict
    `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Sched_AccumulateOp : Sched_Op<"accumulate", [HasParent<"ForChunksOp">,
    SingleBlock]> {
  let summary = "Adds the terms of this chunk's features below count";
  let arguments = (ins Arg<Sched_AccumulatorType, "", [MemRead, MemWrite]>:$acc,
                       Variadic<Sched_ChunkType>:$inputs, I32:$count);
  let assemblyFormat = [{
    $acc (`,` $inputs^)? `count` $count attr-dict `:` qualified(type($acc))
    (`,` qualified(type($inputs))^)? $body
  }];
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
}

def Sched_ReadAccumulatorOp : Sched_Op<"read_accumulator", [
    HasParent<"ForRowGroupsOp">]> {
  let summary = "This thread's sum";
  let arguments = (ins Arg<Sched_AccumulatorType, "", [MemRead]>:$acc);
  let results = (outs Sched_AccumulateFloat:$result);
  let assemblyFormat = [{
    $acc attr-dict `:` qualified(type($acc)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Sched_WarpSumOp : Sched_Op<"warp_sum", [HasParent<"ForRowGroupsOp">,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "Butterfly sum (or max) over groups of `lanes` lanes of a warp";
  let description = [{
    Warp shuffles (xor, offsets lanes/2 ... 1) with the full-warp mask;
    every lane receives its group's total. Not `Pure`: it is convergent and
    must not move.
  }];
  let arguments = (ins Sched_AccumulateFloat:$value, I64Attr:$lanes,
                       Sched_CombineOrSum:$combine);
  let results = (outs Sched_AccumulateFloat:$result);
  let assemblyFormat = [{
    $value `lanes` `(` $lanes `)` (`combine` `(` $combine^ `)`)? attr-dict `:`
    type($result)
  }];
  let hasVerifier = 1;
}

def Sched_ScratchWriteOp : Sched_Op<"scratch_write", [
    HasParent<"ForRowGroupsOp">]> {
  let summary = "The first lane of each warp of a row writes its warp's sum";
  let arguments = (ins Sched_AccumulateFloat:$value,
                       Arg<Sched_ScratchType, "", [MemWrite]>:$scratch);
  let assemblyFormat = [{
    $value `,` $scratch attr-dict `:` type($value) `,` qualified(type($scratch))
  }];
  let hasVerifier = 1;
}

def Sched_ScratchSumOp : Sched_Op<"scratch_sum", [HasParent<"ForRowGroupsOp">]> {
  let summary = "Every thread of a row adds (or maxes) its row's warp sums, in order";
  let arguments = (ins Arg<Sched_ScratchType, "", [MemRead]>:$scratch,
                       Sched_CombineOrSum:$combine);
  let results = (outs Sched_AccumulateFloat:$result);
  let assemblyFormat = [{
    $scratch (`combine` `(` $combine^ `)`)? attr-dict `:`
    qualified(type($scratch)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Sched_SharedClusterSlotOp : Sched_Op<"shared_cluster_slot", [
    HasParent<"KernelOp">, MemoryEffects<[MemAlloc]>]> {
  let summary = "Static shared memory for the block's total, read by its cluster";
  let description = [{
    One element in each block of a cluster (the cluster strategy): the
    other blocks read it through distributed shared memory.
  }];
  let results = (outs Sched_ScratchType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Sched_ClusterWriteOp : Sched_Op<"cluster_write", [
    HasParent<"ForRowGroupsOp">]> {
  let summary = "Thread 0 of the block writes the block's total to its slot";
  let arguments = (ins Sched_AccumulateFloat:$value,
                       Arg<Sched_ScratchType, "", [MemWrite]>:$slot);
  let assemblyFormat = [{
    $value `,` $slot attr-dict `:` type($value) `,` qualified(type($slot))
  }];
  let hasVerifier = 1;
}

def Sched_ClusterSumOp : Sched_Op<"cluster_sum", [HasParent<"ForRowGroupsOp">]> {
  let summary = "Every thread adds (or maxes) its cluster's slots, in rank order";
  let description = [{
    Reads the slot of every block of the cluster, rank 0 first, through
    distributed shared memory, so that every block gets the same bits.
    Needs a `sched.cluster_barrier` between the writes and this op, and
    another before the slots are written again or a block ends.
  }];
  let arguments = (ins Arg<Sched_ScratchType, "", [MemRead]>:$slot,
                       Sched_CombineOrSum:$combine);
  let results = (outs Sched_AccumulateFloat:$result);
  let assemblyFormat = [{
    $slot (`combine` `(` $combine^ `)`)? attr-dict `:`
    qualified(type($slot)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Sched_ClusterBarrierOp : Sched_Op<"cluster_barrier", [
    ParentOneOf<["KernelOp", "ForRowGroupsOp"]>]> {
  let summary = "Every thread of every block of the cluster (barrier.cluster)";
  let description = [{
    Arrives with release and waits with acquire semantics: shared-memory
    writes before it are visible to every block of the cluster after it.
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Sched_BarrierOp : Sched_Op<"barrier", [
    ParentOneOf<["KernelOp", "ForRowGroupsOp"]>]> {
  let summary = "__syncthreads(): every thread of the block";
  let assemblyFormat = "attr-dict";
}

def Sched_AccumulateRowOp : Sched_Op<"accumulate_row", [
    HasParent<"ForChunksOp">, SingleBlock]> {
  let summary = "Adds this row's terms to per-feature sums kept across rows";
  let description = [{
    `sums[c + e] += body(...)` for each feature of the chunk below d,
    skipped for rows past the end. The sums are this thread's registers, or
    its row group's row of the partials buffer (see sched.store_partials):
    either way no other thread touches them, so the order of the additions
    is fixed.
  }];
  let arguments = (ins
      Arg<AnyTypeOf<[Sched_KeptType, Sched_PartialsType]>, "",
          [MemRead, MemWrite]>:$sums,
      Variadic<Sched_ChunkType>:$inputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sums (`,` $inputs^)? attr-dict `:` qualified(type($sums))
    (`,` qualified(type($inputs))^)? $body
  }];
  let hasVerifier = 1;
}

def Sched_StorePartialsOp : Sched_Op<"store_partials", [
    HasParent<"ForChunksOp">]> {
  let summary = "Writes this thread's chunk into its row group's partials";
  let description = [{
    Row blockIdx.x * rows_per_block + row_in_block of the [blocks *
    rows_per_block, d] partials belongs to one row group of one block; a
    later kernel adds the rows in order.
  }];
  let arguments = (ins Sched_ChunkType:$value,
                       Arg<Sched_PartialsType, "", [MemWrite]>:$partials);
  let assemblyFormat = [{
    $value `,` $partials attr-dict `:` qualified(type($value)) `,`
    qualified(type($partials))
  }];
  let hasVerifier = 1;
}

#endif // NORMC_SCHED_OPS
