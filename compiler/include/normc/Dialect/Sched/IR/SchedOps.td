//===- SchedOps.td - Operations of the sched dialect -------*- tablegen -*-===//
#ifndef NORMC_SCHED_OPS
#define NORMC_SCHED_OPS

include "normc/Dialect/Sched/IR/SchedDialect.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Sched_KernelOp : Sched_Op<"kernel", [
    IsolatedFromAbove, NoTerminator, SingleBlock, Symbol, NoRegionArguments]> {
  let summary = "One GPU kernel: a straight-line program run once per row";
  let description = [{
    The body runs for every row a thread group owns. `cols` fixes d when
    present; otherwise d is a kernel argument. Arithmetic on rows runs in
    `accumulate`. The `schedule` is assigned by `sched-assign-schedule` and
    must be present before emission.

    Kernel arguments, in order: each `sched.buffer` (a pointer, followed by
    a 64-bit row stride for `!sched.rows`), then `rows` (64-bit) and `d`
    (32-bit).
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<I64Attr>:$cols,
                       TypeAttrOf<Sched_AccumulateFloat>:$accumulate,
                       OptionalAttr<Sched_ScheduleAttr>:$schedule);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name (`cols` `(` $cols^ `)`)? `accumulate` `(` $accumulate `)`
    (`schedule` `(` qualified($schedule)^ `)`)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

def Sched_BufferOp : Sched_Op<"buffer"> {
  let summary = "A global-memory argument of the kernel";
  let description = [{
    Not `Pure`: a buffer is part of the kernel's signature and stays even
    when the body does not use it.
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs Sched_AnyBuffer:$result);
  let assemblyFormat = "$name attr-dict `:` qualified(type($result))";
}

def Sched_LoadRowOp : Sched_Op<"load_row", [Pure,
    TypesMatchWith<"row element type matches the buffer", "source", "result",
                   "::normc::sched::RowType::get($_self.getContext(), "
                   "::llvm::cast<::normc::sched::RowsType>($_self)"
                   ".getElementType())">]> {
  let summary = "Loads the current row of a buffer";
  let arguments = (ins Sched_RowsType:$source);
  let results = (outs Sched_RowType:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source))";
}

def Sched_AddRowsOp : Sched_Op<"add_rows", [Pure,
    AllTypesMatch<["lhs", "rhs", "result"]>]> {
  let summary = "Elementwise sum in the accumulate type, rounded to storage";
  let arguments = (ins Sched_RowType:$lhs, Sched_RowType:$rhs);
  let results = (outs Sched_RowType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` qualified(type($result))";
}

def Sched_StoreRowOp : Sched_Op<"store_row", []> {
  let summary = "Stores a row into the current row of a buffer";
  let arguments = (ins Sched_RowType:$value, Sched_RowsType:$dest);
  let assemblyFormat = [{
    $value `,` $dest attr-dict `:` qualified(type($value)) `,`
    qualified(type($dest))
  }];
  let hasVerifier = 1;
}

def Sched_FeatureCountOp : Sched_Op<"feature_count", [Pure]> {
  let summary = "k = max(1, floor(fraction * d)) as a 32-bit integer";
  let arguments = (ins F64Attr:$fraction);
  let results = (outs I32:$result);
  let assemblyFormat = "`fraction` $fraction attr-dict";
  let hasVerifier = 1;
}

def Sched_ReduceKind : I32EnumAttr<"ReduceKind", "what a row reduction sums", [
    I32EnumAttrCase<"sum", 0>,
    I32EnumAttrCase<"sum_squares", 1>
  ]> {
  let cppNamespace = "::normc::sched";
}

def Sched_ReduceOp : Sched_Op<"reduce", [Pure]> {
  let summary = "Sum over the first `count` features of a row";
  let description = [{
    `sum`: sum(h[i]); `sum_squares`: sum((h[i] - center)^2), center 0 when
    absent. Computed in the result type, first per thread, then across the
    threads of the row (warp shuffles, then shared memory across warps).
    Every thread of the row receives the total.
  }];
  let arguments = (ins Sched_ReduceKind:$kind, Sched_RowType:$row,
                       I32:$count, Optional<Sched_AccumulateFloat>:$center);
  let results = (outs Sched_AccumulateFloat:$result);
  let assemblyFormat = [{
    $kind $row `,` $count (`center` $center^ `:` type($center))? attr-dict
    `:` qualified(type($row)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Sched_AffineRowOp : Sched_Op<"affine_row", [Pure,
    AttrSizedOperandSegments]> {
  let summary = "y = (h - mean) * rstd * (gain_offset + gain) + bias per feature";
  let arguments = (ins Sched_RowType:$input,
                       Optional<Sched_AccumulateFloat>:$mean,
                       Optional<Sched_AccumulateFloat>:$rstd,
                       Optional<Sched_FeaturesType>:$gain,
                       Optional<Sched_FeaturesType>:$bias,
                       DefaultValuedAttr<F64Attr, "0.0">:$gain_offset);
  let results = (outs Sched_RowType:$result);
  let assemblyFormat = [{
    $input (`mean` $mean^)? (`rstd` $rstd^)? (`gain` $gain^)? (`bias` $bias^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Sched_StoreStatOp : Sched_Op<"store_stat", []> {
  let summary = "Stores a per-row scalar (once per row)";
  let arguments = (ins Sched_AccumulateFloat:$value, Sched_StatsType:$dest);
  let assemblyFormat = [{
    $value `,` $dest attr-dict `:` type($value) `,` qualified(type($dest))
  }];
  let hasVerifier = 1;
}

#endif // NORMC_SCHED_OPS
