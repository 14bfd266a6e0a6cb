//===- NormOps.td - Operations of the norm dialect ---------*- tablegen -*-===//
#ifndef NORMC_NORM_OPS
#define NORMC_NORM_OPS

include "normc/Dialect/Norm/IR/NormDialect.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Norm_StorageFloat : AnyTypeOf<[F32, F16, BF16]>;
def Norm_AccumulateFloat : AnyTypeOf<[F64, F32, F16, BF16]>;
def Norm_Rows : 2DTensorOf<[F32, F16, BF16]>;
def Norm_Features : 1DTensorOf<[F32, F16, BF16]>;
def Norm_RowStats : 1DTensorOf<[F64, F32, F16, BF16]>;

def Norm_SpecOp : Norm_Op<"spec", [
    IsolatedFromAbove, NoTerminator, SingleBlock, Symbol,
    NoRegionArguments]> {
  let summary = "One normalization spec";
  let description = [{
    Holds the dataflow of one spec. `norm.input` and `norm.param` introduce
    the arrays the kernel reads, `norm.output` names what it writes.

    ```mlir
    norm.spec @llama_rmsnorm {
      %x = norm.input "x" : tensor<?x4096xbf16>
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of features when fixed in the types, else std::nullopt.
    std::optional<int64_t> getCols();
  }];
}

def Norm_InputOp : Norm_Op<"input"> {
  let summary = "A [rows, d] activation the kernel reads";
  let arguments = (ins StrAttr:$name);
  let results = (outs Norm_Rows:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
}

def Norm_ParamOp : Norm_Op<"param"> {
  let summary = "A per-feature parameter [d] (gamma, beta)";
  let arguments = (ins StrAttr:$name);
  let results = (outs Norm_Features:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
}

def Norm_ResidualAddOp : Norm_Op<"residual_add", [Pure,
    AllTypesMatch<["x", "residual", "result"]>]> {
  let summary = "h = round_to_storage(x + residual)";
  let description = [{
    The sum is computed in the accumulate type and rounded to the storage
    type of `x`; everything downstream reads the rounded value.
  }];
  let arguments = (ins Norm_Rows:$x, Norm_Rows:$residual,
                       TypeAttrOf<Norm_AccumulateFloat>:$accumulate);
  let results = (outs Norm_Rows:$result);
  let assemblyFormat = [{
    $x `,` $residual `accumulate` $accumulate attr-dict `:` type($result)
  }];
}

def Norm_MeanOp : Norm_Op<"mean", [Pure]> {
  let summary = "Mean of the first k = max(1, floor(fraction * d)) features";
  let arguments = (ins Norm_Rows:$input, F64Attr:$fraction);
  let results = (outs Norm_RowStats:$result);
  let assemblyFormat = [{
    $input `fraction` $fraction attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Norm_MomentOp : Norm_Op<"moment", [Pure]> {
  let summary = "Second moment of the first k features, optionally centered";
  let description = [{
    `s = sum((h[0:k] - mean)^2) / k`, or `/ (k - 1)` when `unbiased`.
    Without `center` the moment is taken about zero (RMSNorm).
  }];
  let arguments = (ins Norm_Rows:$input, Optional<Norm_RowStats>:$mean,
                       F64Attr:$fraction, Norm_Variance:$variance);
  let results = (outs Norm_RowStats:$result);
  let assemblyFormat = [{
    $input (`center` $mean^ `:` type($mean))? `fraction` $fraction
    `variance` $variance attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Norm_RstdOp : Norm_Op<"rstd", [Pure, AllTypesMatch<["moment", "result"]>]> {
  let summary = "Reciprocal standard deviation from a second moment";
  let description = [{
    `inside_sqrt`: r = 1 / sqrt(s + eps); `outside_sqrt`: r = 1 / (sqrt(s) + eps).
  }];
  let arguments = (ins Norm_RowStats:$moment, F64Attr:$epsilon,
                       Norm_EpsilonPlacement:$placement);
  let results = (outs Norm_RowStats:$result);
  let assemblyFormat = [{
    $moment `epsilon` $epsilon `placement` $placement attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Norm_NormalizeOp : Norm_Op<"normalize", [Pure, AttrSizedOperandSegments]> {
  let summary = "y = (h - mean) * rstd * (gain_offset + gain) + bias";
  let description = [{
    Applied to all d features; each optional operand drops its term. The
    arithmetic runs in the element type of the statistics (the accumulate
    type); the result is rounded to nearest-even into its storage type.
  }];
  let arguments = (ins Norm_Rows:$input, Optional<Norm_RowStats>:$mean,
                       Optional<Norm_RowStats>:$rstd,
                       Optional<Norm_Features>:$gain,
                       Optional<Norm_Features>:$bias,
                       DefaultValuedAttr<F64Attr, "0.0">:$gain_offset);
  let results = (outs Norm_Rows:$result);
  let assemblyFormat = [{
    $input (`mean` $mean^)? (`rstd` $rstd^)? (`gain` $gain^)? (`bias` $bias^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The type the arithmetic runs in (element type of the statistics).
    mlir::Type getAccumulateType();
  }];
}

def Norm_FillOp : Norm_Op<"fill", [Pure]> {
  let summary = "A per-row statistic that is the same for every row";
  let description = [{
    The rstd of a spec with `scale = false` is 1 for every row; saving the
    statistics stores it all the same.

    ```mlir
    %r = norm.fill %h value 1.0 : tensor<?x64xf32> -> tensor<?xf32>
    ```
  }];
  let arguments = (ins Norm_Rows:$rowsOf, F64Attr:$value);
  let results = (outs Norm_RowStats:$result);
  let assemblyFormat = [{
    $rowsOf `value` $value attr-dict `:` type($rowsOf) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Norm_ConvertOp : Norm_Op<"convert", [Pure]> {
  let summary = "Element type conversion of per-row statistics";
  let arguments = (ins Norm_RowStats:$input);
  let results = (outs Norm_RowStats:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
}

def Norm_OutputOp : Norm_Op<"output", []> {
  let summary = "Names a value the kernel stores";
  let description = [{
    `y`, `residual_out` ([rows, d]) and `mean`, `rstd` ([rows], f32).
  }];
  let arguments = (ins StrAttr:$name,
                       AnyTypeOf<[Norm_Rows, Norm_RowStats]>:$value);
  let assemblyFormat = "$name `,` $value attr-dict `:` type($value)";
}

#endif // NORMC_NORM_OPS
