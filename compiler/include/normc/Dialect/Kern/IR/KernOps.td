//===- KernOps.td - Operations of the kern dialect ---------*- tablegen -*-===//
#ifndef NORMC_KERN_OPS
#define NORMC_KERN_OPS

include "normc/Dialect/Kern/IR/KernDialect.td"
include "normc/Dialect/Kern/IR/KernEnums.td"
include "normc/Dialect/Sched/IR/SchedInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

def Kern_KernelOp : Kern_Op<"kernel", [
    IsolatedFromAbove, NoTerminator, SingleBlock, Symbol, NoRegionArguments,
    Sched_KernelInterface]> {
  let summary = "One GPU kernel, step by step";
  let description = [{
    What `convert-sched-to-kern` makes of a scheduled `sched.kernel`: its
    buffers (the same arguments, in the same order), the storage it
    declares, and one loop: `kern.for_row_groups` over the rows, or
    `kern.for_features` over the features (a kernel that adds partial
    sums). `d`, `accumulate` and `launch_order` are the row-level
    kernel's; the `schedule` is required, and the `shared` layout is placed
    by `kern-allocate-shared`. `partial_rows` (a reproducible kernel that
    stores partials) fixes the number of partial-sum rows whatever the
    grid: row r of the input adds to partial row r mod partial_rows, so the
    launch never has more than partial_rows / rows_per_block blocks.

    ```mlir
    kern.kernel @rmsnorm accumulate(f32)
        schedule(#sched.schedule<row_group, rows_per_block = 1,
                 threads_per_row = 128, vector_width = 8,
                 row_storage = shared>)
        shared(#kern.shared_layout<[<rows = 1, bytes = 2, vector_width = 8>]>) {
      %x = sched.buffer "x" : !sched.rows<bf16>
      ...
      kern.for_row_groups {
        ...
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<I64Attr>:$d,
                       TypeAttrOf<Normc_AccumulateElement>:$accumulate,
                       Sched_ScheduleAttr:$schedule,
                       OptionalAttr<Kern_SharedLayoutAttr>:$shared_layout,
                       DefaultValuedAttr<I64Attr, "0">:$launch_order,
                       OptionalAttr<I64Attr>:$partial_rows);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name (`d` `(` $d^ `)`)? `accumulate` `(` $accumulate `)`
    `schedule` `(` qualified($schedule) `)`
    (`partial_rows` `(` $partial_rows^ `)`)?
    (`shared` `(` qualified($shared_layout)^ `)`)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Kern_YieldOp : Kern_Op<"yield", [Pure, Terminator,
    ParentOneOf<["MapChunkOp", "AccumulateOp", "AccumulateRowOp",
                 "AccumulateGroupMaxOp", "TreeTileOp"]>]> {
  let summary = "The per-feature value of a chunk body";
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// Storage, the row loop, reductions across threads
//===----------------------------------------------------------------------===//

def Kern_SharedRowsOp : Kern_Op<"shared_rows", [HasParent<"KernelOp">,
    MemoryEffects<[MemAlloc]>]> {
  let summary = "Rows kept in dynamic shared memory: a region per slot";
  let description = [{
    Slot i holds rows_per_block rows of its element type, each the block's
    features padded to whole vectors, in region `region + i` of the
    kernel's `shared` layout (placed by `kern-allocate-shared`).
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$region);
  let results = (outs Variadic<Sched_KeptType>:$slots);
  let assemblyFormat = [{
    (`region` `(` $region^ `)`)? attr-dict `:` qualified(type($slots))
  }];
  let hasVerifier = 1;
}

def Kern_SharedScratchOp : Kern_Op<"shared_scratch", [
    HasParent<"KernelOp">, MemoryEffects<[MemAlloc]>]> {
  let summary = "Static shared memory for cross-warp sums: warps slots a row";
  let arguments = (ins I64Attr:$warps);
  let results = (outs Sched_ScratchType:$result);
  let assemblyFormat = [{
    `warps` `(` $warps `)` attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Kern_SharedGroupsOp : Kern_Op<"shared_groups", [HasParent<"KernelOp">,
    MemoryEffects<[MemAlloc]>, Sched_GroupedInterface]> {
  let summary = "Dynamic shared memory for a value per group of each row";
  let description = [{
    rows_per_block rows of ceil(d / G) elements in region `region` of the
    kernel's `shared` layout, after the regions of `kern.shared_rows`.
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

def Kern_ForRowGroupsOp : Kern_Op<"for_row_groups", [HasParent<"KernelOp">,
    NoTerminator, SingleBlock, NoRegionArguments, RecursiveMemoryEffects,
    Sched_RowScope]> {
  let summary = "Blocks stride over groups of rows_per_block rows";
  let description = [{
    Each group of threads_per_row threads owns one row of the group. Threads
    of a row past the end load zeros and store nothing, but still take part
    in the block's barriers.
  }];
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
}

def Kern_ForChunksOp : Kern_Op<"for_chunks", [NoTerminator, SingleBlock,
    NoRegionArguments, ParentOneOf<["KernelOp", "ForRowGroupsOp"]>,
    RecursiveMemoryEffects]> {
  let summary = "A pass of this thread over its chunks of the row";
  let description = [{
    Chunk j of a thread starts at feature (j * threads_per_row + lane) *
    vector_width; every pass maps the same features to the same thread.
    With `unrolled(n)` the loop runs exactly n chunks, fully unrolled (what
    register-kept rows need), else up to d. Outside the row loop a pass may
    touch only storage and per-feature buffers. With `uniform` every thread
    of a row runs the same chunks, past d too (loads give zeros there, and
    reads of a kept row stay inside it): what warp shuffles inside the pass
    need.
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$unrolled, UnitAttr:$uniform);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`unrolled` `(` $unrolled^ `)`)? (`uniform` $uniform^)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

def Kern_AllocRowOp : Kern_Op<"alloc_row", [
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

def Kern_LoadChunkOp : Kern_Op<"load_chunk", [HasParent<"ForChunksOp">]> {
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

def Kern_StoreChunkOp : Kern_Op<"store_chunk", [HasParent<"ForChunksOp">]> {
  let summary = "Stores this thread's chunk into the current row of a buffer";
  let arguments = (ins Sched_ChunkType:$value,
                       Arg<Sched_RowsType, "", [MemWrite]>:$dest);
  let assemblyFormat = [{
    $value `,` $dest attr-dict `:` qualified(type($value)) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Kern_KeepOp : Kern_Op<"keep", [HasParent<"ForChunksOp">]> {
  let summary = "Writes this thread's chunk of a kept row";
  let arguments = (ins Sched_ChunkType:$value,
                       Arg<Sched_KeptType, "", [MemWrite]>:$dest);
  let assemblyFormat = [{
    $value `,` $dest attr-dict `:` qualified(type($value)) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Kern_AsyncKeepOp : Kern_Op<"async_keep", [HasParent<"ForChunksOp">]> {
  let summary = "Copies this thread's chunk of a row into shared memory, "
                "asynchronously";
  let description = [{
    The chunk of the current row of `source` goes to its place in the kept
    row `dest` (a region of `kern.shared_rows`) without passing through
    registers: `cp.async` from sm_80 on, for whole aligned chunks of 4 to 64
    bytes. The thread must wait for it (`kern.async_wait`) before it reads
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

def Kern_AsyncWaitOp : Kern_Op<"async_wait", [HasParent<"ForRowGroupsOp">]> {
  let summary = "Waits for this thread's asynchronous copies "
                "(cp.async.wait_all)";
  let description = [{
    Every `kern.async_keep` of this thread before it has landed after it.
    Each thread reads back only its own chunks, so no barrier is needed.
  }];
  let assemblyFormat = "attr-dict";
}

def Kern_ReadKeptOp : Kern_Op<"read_kept", [HasParent<"ForChunksOp">]> {
  let summary = "Reads this thread's chunk of a kept row";
  let arguments = (ins Arg<Sched_KeptType, "", [MemRead]>:$source);
  let results = (outs Sched_ChunkType:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Kern_MapChunkOp : Kern_Op<"map_chunk", [Pure, HasParent<"ForChunksOp">,
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

def Kern_ClearGroupOp : Kern_Op<"clear_group", [HasParent<"ForChunksOp">]> {
  let summary = "The chunk that starts a group sets its table slot to 0";
  let arguments = (ins Arg<Sched_GroupTableType, "", [MemWrite]>:$table);
  let assemblyFormat = "$table attr-dict `:` qualified(type($table))";
  let hasVerifier = 1;
}

def Kern_AccumulateGroupMaxOp : Kern_Op<"accumulate_group_max", [
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

def Kern_ReadGroupOp : Kern_Op<"read_group", [HasParent<"ForChunksOp">]> {
  let summary = "This chunk's group slot, as every element of a chunk";
  let arguments = (ins Arg<Sched_GroupTableType, "", [MemRead]>:$table);
  let results = (outs Sched_ChunkType:$result);
  let assemblyFormat = [{
    $table attr-dict `:` qualified(type($table)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Kern_StoreGroupOp : Kern_Op<"store_group", [HasParent<"ForChunksOp">,
    Sched_GroupedInterface]> {
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

def Kern_AccumulatorOp : Kern_Op<"accumulator", [
    HasParent<"ForRowGroupsOp">, MemoryEffects<[MemAlloc]>]> {
  let summary = "A per-thread running sum (or max), zero at each row's start";
  let description = [{
    `compensated` keeps a second term with the rounding error of each
    addition (Knuth's TwoSum), so that the sum of a row whose mean is
    large against its spread stays accurate. With `combine(max)` it keeps
    the largest term instead (see sched.reduce). With `pairwise(n)` it adds
    the values `kern.tree_tile` gives it, the i-th of them standing for the
    i-th aligned run of features, in a pairwise tree (a binary counter of n
    levels, for up to 2^(n-1) values): the tree of reproducible mode, whose
    shape does not depend on how many values there are beyond padding.
  }];
  let arguments = (ins UnitAttr:$compensated, Sched_CombineOrSum:$combine,
                       OptionalAttr<I64Attr>:$pairwise);
  let results = (outs Sched_AccumulatorType:$result);
  let assemblyFormat = [{
    (`compensated` $compensated^)? (`combine` `(` $combine^ `)`)?
    (`pairwise` `(` $pairwise^ `)`)? attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Kern_AccumulateOp : Kern_Op<"accumulate", [HasParent<"ForChunksOp">,
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

def Kern_ReadAccumulatorOp : Kern_Op<"read_accumulator", [
    HasParent<"ForRowGroupsOp">]> {
  let summary = "This thread's sum";
  let arguments = (ins Arg<Sched_AccumulatorType, "", [MemRead]>:$acc);
  let results = (outs Normc_AccumulateElement:$result);
  let assemblyFormat = [{
    $acc attr-dict `:` qualified(type($acc)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Kern_WarpSumOp : Kern_Op<"warp_sum", [HasParent<"ForRowGroupsOp">,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "Butterfly sum (or max) over groups of `lanes` lanes of a warp";
  let description = [{
    Warp shuffles (xor, offsets lanes/2 ... 1) with the full-warp mask;
    every lane receives its group's total. Not `Pure`: it is convergent and
    must not move.
  }];
  let arguments = (ins Normc_AccumulateElement:$value, I64Attr:$lanes,
                       Sched_CombineOrSum:$combine);
  let results = (outs Normc_AccumulateElement:$result);
  let assemblyFormat = [{
    $value `lanes` `(` $lanes `)` (`combine` `(` $combine^ `)`)? attr-dict `:`
    type($result)
  }];
  let hasVerifier = 1;
}

def Kern_ScratchWriteOp : Kern_Op<"scratch_write", [
    HasParent<"ForRowGroupsOp">]> {
  let summary = "The first lane of each warp of a row writes its warp's sum";
  let arguments = (ins Normc_AccumulateElement:$value,
                       Arg<Sched_ScratchType, "", [MemWrite]>:$scratch);
  let assemblyFormat = [{
    $value `,` $scratch attr-dict `:` type($value) `,` qualified(type($scratch))
  }];
  let hasVerifier = 1;
}

def Kern_ScratchSumOp : Kern_Op<"scratch_sum", [HasParent<"ForRowGroupsOp">]> {
  let summary = "Every thread of a row adds (or maxes) its row's warp sums, in order";
  let arguments = (ins Arg<Sched_ScratchType, "", [MemRead]>:$scratch,
                       Sched_CombineOrSum:$combine);
  let results = (outs Normc_AccumulateElement:$result);
  let assemblyFormat = [{
    $scratch (`combine` `(` $combine^ `)`)? attr-dict `:`
    qualified(type($scratch)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Kern_SharedClusterSlotOp : Kern_Op<"shared_cluster_slot", [
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

def Kern_ClusterWriteOp : Kern_Op<"cluster_write", [
    HasParent<"ForRowGroupsOp">]> {
  let summary = "Thread 0 of the block writes the block's total to its slot";
  let arguments = (ins Normc_AccumulateElement:$value,
                       Arg<Sched_ScratchType, "", [MemWrite]>:$slot);
  let assemblyFormat = [{
    $value `,` $slot attr-dict `:` type($value) `,` qualified(type($slot))
  }];
  let hasVerifier = 1;
}

def Kern_ClusterSumOp : Kern_Op<"cluster_sum", [HasParent<"ForRowGroupsOp">]> {
  let summary = "Every thread adds (or maxes) its cluster's slots, in rank order";
  let description = [{
    Reads the slot of every block of the cluster, rank 0 first, through
    distributed shared memory, so that every block gets the same bits.
    Needs a `kern.cluster_barrier` between the writes and this op, and
    another before the slots are written again or a block ends. With
    `pairwise` the slots are added in a pairwise tree over the ranks
    (the cluster's size is a power of two), the top of reproducible mode's
    tree when each block's slice is an aligned power of two of features.
  }];
  let arguments = (ins Arg<Sched_ScratchType, "", [MemRead]>:$slot,
                       Sched_CombineOrSum:$combine, UnitAttr:$pairwise);
  let results = (outs Normc_AccumulateElement:$result);
  let assemblyFormat = [{
    $slot (`combine` `(` $combine^ `)`)? (`pairwise` $pairwise^)? attr-dict `:`
    qualified(type($slot)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Kern_ClusterBarrierOp : Kern_Op<"cluster_barrier", [
    ParentOneOf<["KernelOp", "ForRowGroupsOp"]>]> {
  let summary = "Every thread of every block of the cluster (barrier.cluster)";
  let description = [{
    Arrives with release and waits with acquire semantics: shared-memory
    writes before it are visible to every block of the cluster after it.
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Kern_BarrierOp : Kern_Op<"barrier", [
    ParentOneOf<["KernelOp", "ForRowGroupsOp"]>]> {
  let summary = "__syncthreads(): every thread of the block";
  let assemblyFormat = "attr-dict";
}

def Kern_AccumulateRowOp : Kern_Op<"accumulate_row", [
    HasParent<"ForChunksOp">, SingleBlock]> {
  let summary = "Adds this row's terms to per-feature sums kept across rows";
  let description = [{
    `sums[c + e] += body(...)` for each feature of the chunk below d,
    skipped for rows past the end. The sums are this thread's registers, or
    its row group's row of the partials buffer (see kern.store_partials):
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

def Kern_StorePartialsOp : Kern_Op<"store_partials", [
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

def Kern_ClearPartialOp : Kern_Op<"clear_partial", [HasParent<"KernelOp">]> {
  let summary = "Zeroes column 0 of this row group's partials row";
  let description = [{
    Before the row loop, the first thread of each row group sets column 0
    of its row of the partials (see kern.store_partials) to 0: where a
    `kern.add_partial` sums a per-row scalar.
  }];
  let arguments = (ins Arg<Sched_PartialsType, "", [MemWrite]>:$partials);
  let assemblyFormat = "$partials attr-dict `:` qualified(type($partials))";
}

def Kern_AddPartialOp : Kern_Op<"add_partial", [
    HasParent<"ForRowGroupsOp">]> {
  let summary = "Adds a per-row scalar to column 0 of the row group's partials";
  let description = [{
    `partials_row[0] += value` by the row's first thread (in a cluster, the
    first block's), skipped for rows past the end: one thread adds its row
    group's rows in order, so the sum is the same bits on every run.
  }];
  let arguments = (ins Normc_AccumulateElement:$value,
                       Arg<Sched_PartialsType, "", [MemRead, MemWrite]>:$partials);
  let assemblyFormat = [{
    $value `,` $partials attr-dict `:` type($value) `,`
    qualified(type($partials))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// The fixed reduction tree of reproducible mode
//===----------------------------------------------------------------------===//

def Kern_SharedTilesOp : Kern_Op<"shared_tiles", [HasParent<"KernelOp">,
    MemoryEffects<[MemAlloc]>]> {
  let summary = "Dynamic shared memory for the tile sums of each row";
  let description = [{
    rows_per_block rows of ceil(d / tile) elements in region `region` of the
    kernel's `shared` layout (the last one): `kern.tree_tile` writes tile t
    of a row at index t, `kern.tree_total` adds them. A tile is the
    32 * vector_width features of one warp's chunk.
  }];
  let arguments = (ins I64Attr:$tile, OptionalAttr<I64Attr>:$region);
  let results = (outs Sched_GroupTableType:$result);
  let assemblyFormat = [{
    `tile` `(` $tile `)` (`region` `(` $region^ `)`)? attr-dict `:`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Kern_TreeTileOp : Kern_Op<"tree_tile", [HasParent<"ForChunksOp">,
    SingleBlock]> {
  let summary = "Adds a tile's terms in a fixed tree: vector, then lanes";
  let description = [{
    The tile is the chunk of each of `lanes` consecutive lanes of the row
    (lanes * vector_width consecutive features, aligned): every thread
    computes its chunk's terms (-0.0, the exact identity of addition, past
    `count`), and the stages of `order` add them into the tile's sum, which
    every lane receives: pairwise over the vector (element e with e + 1,
    then pairs of pairs, ...) and a butterfly across the lanes (xor 1, 2,
    ..., lanes / 2). The sum goes to `dest`: a `pairwise` accumulator (the
    chunks of a row within a warp are the tree's next stages) or the row's
    slot of a `kern.shared_tiles` table, written by the tile's first lane.
    The pass must be `uniform` or unrolled: every lane shuffles.
  }];
  let arguments = (ins
      Arg<AnyTypeOf<[Sched_AccumulatorType, Sched_GroupTableType]>, "",
          [MemRead, MemWrite]>:$dest,
      Variadic<Sched_ChunkType>:$inputs, I32:$count, I64Attr:$lanes,
      DefaultValuedAttr<Kern_TileOrder,
                        "::normc::kern::TileOrder::vector_then_lanes">:$order);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $dest (`,` $inputs^)? `count` $count `lanes` `(` $lanes `)`
    (`order` `(` $order^ `)`)? attr-dict `:` qualified(type($dest))
    (`,` qualified(type($inputs))^)? $body
  }];
  let hasVerifier = 1;
}

def Kern_TreeTotalOp : Kern_Op<"tree_total", [HasParent<"ForRowGroupsOp">]> {
  let summary = "Adds a row's tile sums in a fixed tree";
  let description = [{
    Every warp of the row reads the row's n tile sums (after a barrier):
    with N = n rounded up to a power of two, lane l adds tiles l * N / 32
    ... (l + 1) * N / 32 - 1 in a pairwise tree of `depth` levels (-0.0 for
    tiles past n), then the butterfly across the warp's 32 lanes (xor 1
    ... 16) gives every lane the row's total. Together with the tiles' own
    trees, a pairwise tree over the features whatever the threads per row.
  }];
  let arguments = (ins Arg<Sched_GroupTableType, "", [MemRead]>:$tiles,
                       I64Attr:$depth);
  let results = (outs Normc_AccumulateElement:$result);
  let assemblyFormat = [{
    $tiles `depth` `(` $depth `)` attr-dict `:` qualified(type($tiles)) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Sums of partial rows
//===----------------------------------------------------------------------===//

def Kern_ForFeaturesOp : Kern_Op<"for_features", [HasParent<"KernelOp">,
    NoTerminator, SingleBlock, NoRegionArguments, RecursiveMemoryEffects]> {
  let summary = "The threads of the grid stride over the features";
  let description = [{
    Thread t of the grid (blockIdx.x * blockDim.x + threadIdx.x) runs the
    body for features t, t + gridDim.x * blockDim.x, ... below d: each
    feature by exactly one thread.
  }];
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
}

def Kern_SumColumnOp : Kern_Op<"sum_column", [HasParent<"ForFeaturesOp">]> {
  let summary = "The current feature's sum over the partial rows, in order";
  let description = [{
    Adds partials[b, f] for b = 0, 1, ... below the kernel's `rows`, in
    increasing b, in the accumulate type; `compensated` carries TwoSum's
    error terms and adds them once at the end. The same bits for the same
    partials on every run. With `first`, the column is 0, a per-row
    scalar's (sched.reduce_stat_rows), added by the thread of feature 0
    only; the others' result is 0.
  }];
  let arguments = (ins Arg<Sched_PartialsType, "", [MemRead]>:$partials,
                       UnitAttr:$compensated, UnitAttr:$first);
  let results = (outs Normc_AccumulateElement:$result);
  let assemblyFormat = [{
    $partials (`compensated` $compensated^)? (`first` $first^)? attr-dict `:`
    qualified(type($partials)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Kern_StoreFeatureOp : Kern_Op<"store_feature", [
    HasParent<"ForFeaturesOp">]> {
  let summary = "Stores the current feature of a per-feature buffer";
  let description = [{
    Into a scalar buffer, the thread of feature 0 stores its one element.
  }];
  let arguments = (ins AnyType:$value,
                       Arg<AnyTypeOf<[Sched_FeaturesType, Sched_ScalarType]>,
                           "", [MemWrite]>:$dest);
  let assemblyFormat = [{
    $value `,` $dest attr-dict `:` type($value) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

#endif // NORMC_KERN_OPS
