//===- NormOps.td - Operations of the norm dialect ---------*- tablegen -*-===//
#ifndef NORMC_NORM_OPS
#define NORMC_NORM_OPS

include "normc/Dialect/Norm/IR/NormDialect.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "normc/Dialect/Norm/IR/VjpInterface.td"
include "normc/Dialect/ElementRoles.td"

def Norm_Rows : 2DTensorOf<[Normc_StorageElement]>;
def Norm_Features : 1DTensorOf<[Normc_StorageElement]>;
def Norm_RowStats : 1DTensorOf<[Normc_AccumulateElement]>;
// Values a backward computation derives, in the accumulate type.
def Norm_AccRows : 2DTensorOf<[Normc_AccumulateElement]>;
def Norm_AccFeatures : 1DTensorOf<[Normc_AccumulateElement]>;
// What the statistics and the normalization read: stored rows, or rows a
// norm.map computed (a gate's x * act(z), in the accumulate type).
// One value for every row and feature: a scalar norm.param.
def Norm_Scalar : 1DTensorOf<[Normc_StorageElement]>;
def Norm_AnyRows : AnyTypeOf<[Norm_Rows, Norm_AccRows], "rows",
                              "::mlir::RankedTensorType">;
// A quantized output (docs/fp8.md).
def Norm_QuantizedRows : 2DTensorOf<[Normc_QuantizedElement]>;

def Norm_SpecOp : Norm_Op<"spec", [
    IsolatedFromAbove, NoTerminator, SingleBlock, Symbol,
    NoRegionArguments]> {
  let summary = "One normalization spec";
  let description = [{
    Holds the dataflow of one spec. `norm.input` and `norm.param` introduce
    the arrays the kernel reads, `norm.output` names what it writes.
    `reproducible` (the spec's `[numerics] reproducible`) asks for a
    reduction order that depends on d only; the kernels lowered from it
    carry the flag, and the schedule and the partial sums follow it.
    `accumulate_rows` (the spec's `[dtypes] accumulate_rows`) is the type
    its derived backward sums the parameters' gradients over the rows in;
    absent, they sum in the type the per-row arithmetic uses.

    ```mlir
    norm.spec @llama_rmsnorm {
      %x = norm.input "x" : tensor<?x4096xbf16>
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, UnitAttr:$reproducible,
      OptionalAttr<TypeAttrOf<Normc_AccumulateElement>>:$accumulate_rows);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name (`reproducible` $reproducible^)?
    (`accumulate_rows` `(` $accumulate_rows^ `)`)? attr-dict-with-keyword $body
  }];
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name), [{
    build($_builder, $_state, name, /*reproducible=*/false,
          /*accumulate_rows=*/::mlir::TypeAttr());
  }]>];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of features when fixed in the types, else std::nullopt.
    std::optional<int64_t> getD();
  }];
}

def Norm_InputOp : Norm_Op<"input"> {
  let summary = "A [rows, d] activation or [rows] statistic the kernel reads";
  let description = [{
    Per-row inputs are f32 statistics saved by a forward (`mean`, `rstd`),
    which a backward reads instead of recomputing them. A `tensor<1xf32>`
    is one value for every row: the static scale of an fp8 output.
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs AnyTypeOf<[Norm_Rows, Norm_RowStats]>:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
  let extraClassDeclaration = [{
    ::mlir::RankedTensorType getTensorType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getType());
    }
  }];
}

def Norm_ParamOp : Norm_Op<"param"> {
  let summary = "A per-feature parameter [d] (gamma, beta), or a scalar one";
  let description = [{
    A `scalar` parameter is one value for every row and feature, a
    `tensor<1xT>` (Dynamic Tanh's alpha, Derf's shift): a norm.map reads it
    among its per-row operands, and its gradient is a sum over every row
    and feature.

    ```mlir
    %alpha = norm.param "alpha" scalar : tensor<1xbf16>
    ```
  }];
  let arguments = (ins StrAttr:$name, UnitAttr:$scalar);
  let results = (outs Norm_Features:$result);
  let assemblyFormat = "$name (`scalar` $scalar^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Norm_ResidualAddOp : Norm_Op<"residual_add", [Pure, DeclareOpInterfaceMethods<Norm_VjpOpInterface>,
    AllTypesMatch<["residual", "result"]>, AllShapesMatch<["x", "result"]>]> {
  let summary = "h = round_to_storage(x + residual)";
  let description = [{
    The sum is computed in the accumulate type and rounded to the storage
    type of `residual`, the residual stream's (which may be wider than
    `x`'s); everything downstream reads the rounded value.
  }];
  let arguments = (ins Norm_Rows:$x, Norm_Rows:$residual,
                       TypeAttrOf<Normc_AccumulateElement>:$accumulate);
  let results = (outs Norm_Rows:$result);
  let assemblyFormat = [{
    $x `,` $residual `accumulate` $accumulate attr-dict `:` type($x) `->`
    type($result)
  }];
}

def Norm_MeanOp : Norm_Op<"mean", [Pure, DeclareOpInterfaceMethods<Norm_VjpOpInterface>]> {
  let summary = "Mean of the first k = max(1, floor(fraction * d)) features";
  let description = [{
    `corrected`: in two passes, `m = sum(h[0:k]) / k`, then, with `c` the
    value of m in a third of the accumulate type's significant bits (bf16
    for f32, f32 for f64), `mu = c + sum(h[0:k] - c) / k`. Each `h - c` is
    exact unless |h| is far above |c|, so the second sum rounds only as it
    adds: where the mean is large against the row's spread its terms and
    partial sums are small and mu is within about half a unit in the last
    place of the exact mean (the first pass alone may be off by several);
    elsewhere it is as accurate as the first pass. The same value either
    way in exact arithmetic, so its derivative is the plain mean's. Needs
    an f32 or f64 accumulate type.
  }];
  let arguments = (ins Norm_AnyRows:$input, F64Attr:$fraction,
                       UnitAttr:$corrected);
  let results = (outs Norm_RowStats:$result);
  let assemblyFormat = [{
    $input `fraction` $fraction (`corrected` $corrected^)? attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Norm_MomentOp : Norm_Op<"moment", [Pure, DeclareOpInterfaceMethods<Norm_VjpOpInterface>]> {
  let summary = "Second moment of the first k features, optionally centered";
  let description = [{
    `s = sum((h[0:k] - mean)^2) / k`, or `/ (k - 1)` when `unbiased`.
    Without `center` the moment is taken about zero (RMSNorm).
  }];
  let arguments = (ins Norm_AnyRows:$input, Optional<Norm_RowStats>:$mean,
                       F64Attr:$fraction, Norm_Variance:$variance);
  let results = (outs Norm_RowStats:$result);
  let assemblyFormat = [{
    $input (`center` $mean^ `:` type($mean))? `fraction` $fraction
    `variance` $variance attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Norm_RstdOp : Norm_Op<"rstd", [Pure, DeclareOpInterfaceMethods<Norm_VjpOpInterface>,
    AllTypesMatch<["moment", "result"]>]> {
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

def Norm_NormalizeOp : Norm_Op<"normalize", [Pure, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Norm_VjpOpInterface>]> {
  let summary = "y = (h - mean) * rstd * (gain_offset + gain) + bias";
  let description = [{
    Applied to all d features; each optional operand drops its term.
    Without statistics the input is already normalized (a map computed it,
    as Dynamic Tanh's tanh(alpha h)) and only the affine step remains. The
    arithmetic runs in the element type of the statistics (the accumulate
    type); the result is rounded to nearest-even into its storage type.
    With `rounded to T` (the spec's `affine.normalized`), n = (h - mean) *
    rstd is first rounded to nearest-even into T and back, as Hugging
    Face's LlamaRMSNorm (T the input type) and T5LayerNorm (the params
    type) do. The backward takes that rounding as the identity. A result
    in the accumulate type is y unrounded, as an fp8 output quantizes it.
  }];
  let arguments = (ins Norm_AnyRows:$input, Optional<Norm_RowStats>:$mean,
                       Optional<Norm_RowStats>:$rstd,
                       Optional<Norm_Features>:$gain,
                       Optional<Norm_Features>:$bias,
                       DefaultValuedAttr<F64Attr, "0.0">:$gain_offset,
                       OptionalAttr<TypeAttrOf<Normc_StorageElement>>:$normalized_type);
  let results = (outs Norm_AccRows:$result);
  let assemblyFormat = [{
    $input (`mean` $mean^)? (`rstd` $rstd^)? (`gain` $gain^)? (`bias` $bias^)?
    (`rounded` `to` $normalized_type^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The type the arithmetic runs in (element type of the statistics).
    mlir::Type getAccumulateType();
  }];
}

def Norm_FillOp : Norm_Op<"fill", [Pure, DeclareOpInterfaceMethods<Norm_VjpOpInterface>]> {
  let summary = "A per-row statistic that is the same for every row";
  let description = [{
    The rstd of a spec with `scale = false` is 1 for every row; saving the
    statistics stores it all the same.

    ```mlir
    %r = norm.fill %h value 1.0 : tensor<?x64xf32> -> tensor<?xf32>
    ```
  }];
  let arguments = (ins Norm_AnyRows:$rowsOf, F64Attr:$value);
  let results = (outs Norm_RowStats:$result);
  let assemblyFormat = [{
    $rowsOf `value` $value attr-dict `:` type($rowsOf) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Norm_ConvertOp : Norm_Op<"convert", [Pure, DeclareOpInterfaceMethods<Norm_VjpOpInterface>]> {
  let summary = "Element type conversion of per-row statistics";
  let arguments = (ins Norm_RowStats:$input);
  let results = (outs Norm_RowStats:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
}

def Norm_AmaxOp : Norm_Op<"amax", [Pure]> {
  let summary = "Largest magnitude per row, or per group of features of a row";
  let description = [{
    max_i |y[i]| over all d features of each row, or with `group(G)` over
    each group of G consecutive features (features [g G, min((g + 1) G, d));
    the last group may be shorter), giving [rows, ceil(d / G)]. NaN elements
    are ignored; zeros and NaNs only give 0. The amax of an fp8 output
    (docs/fp8.md), in the operand's element type.

    ```mlir
    %a = norm.amax %y : tensor<?x4096xf32> -> tensor<?xf32>
    %b = norm.amax %y group(128) : tensor<?x4096xf32> -> tensor<?x32xf32>
    ```
  }];
  let arguments = (ins Norm_AccRows:$input, OptionalAttr<I64Attr>:$group);
  let results = (outs AnyTypeOf<[Norm_RowStats, Norm_AccRows]>:$result);
  let assemblyFormat = [{
    $input (`group` `(` $group^ `)`)? attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Norm_QuantizeOp : Norm_Op<"quantize", [Pure]> {
  let summary = "q = round(y / s): an fp8 or int8 output with its scale";
  let description = [{
    The division runs in the operands' element type (the accumulate type);
    the quotient is rounded to nearest even into the result's fp8 type,
    saturating to its largest finite value (infinities too), NaN staying
    NaN; or into an integer type (i8), clamped to its range, NaN becoming
    0. `scale` has one element per row, one (`tensor<1x...>`) for all
    rows (a static scale), or with `group(G)` one per row and group of G
    features ([rows, ceil(d / G)]).

    ```mlir
    %q = norm.quantize %y scale %s
        : (tensor<?x64xf32>, tensor<?xf32>) -> tensor<?x64xf8E4M3FN>
    ```
  }];
  let arguments = (ins Norm_AccRows:$input,
                       AnyTypeOf<[Norm_RowStats, Norm_AccRows]>:$scale,
                       OptionalAttr<I64Attr>:$group);
  let results = (outs Norm_QuantizedRows:$result);
  let assemblyFormat = [{
    $input `scale` $scale (`group` `(` $group^ `)`)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether one scale serves every row.
    bool isStatic() {
      auto scale = ::llvm::cast<::mlir::RankedTensorType>(getScale().getType());
      return scale.getRank() == 1 &&
             !::mlir::ShapedType::isDynamic(scale.getDimSize(0));
    }
  }];
}

def Norm_OutputOp : Norm_Op<"output", []> {
  let summary = "Names a value the kernel stores";
  let description = [{
    `y`, `residual_out`, `dx`, `dresidual` ([rows, d]), `mean`, `rstd`,
    `scale`, `amax` ([rows], f32; block scales [rows, ceil(d / G)]) and `dgamma`, `dbeta` ([d], a
    `norm.sum_rows`).
  }];
  let arguments = (ins StrAttr:$name,
                       AnyTypeOf<[Norm_Rows, Norm_QuantizedRows, Norm_RowStats,
                                  Norm_Features, Norm_AccRows]>:$value);
  let assemblyFormat = "$name `,` $value attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// Generic ops, which backward computations are built of
//===----------------------------------------------------------------------===//

def Norm_MapOp : Norm_Op<"map", [Pure, SingleBlock, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Norm_VjpOpInterface>]> {
  let summary = "An elementwise computation, broadcasting over rows and features";
  let description = [{
    The body runs once per element of the result: its arguments are that
    element's value of each operand, `inputs` ([rows, d], or [d] broadcast
    over the rows) first, then `stats` ([rows], broadcast over the
    features, or a scalar norm.param, the same for every element). The result is [rows, d], or per-row when there are no
    `inputs` and the result is 1-D. With `fraction` the body applies to the
    first k = max(1, floor(fraction * d)) features only and the result is 0
    for the others: how statistics of a feature range pass their gradient
    back. Bodies hold `arith`/`math` scalar ops and `norm.count`.

    Its derivative is the body's, in reverse (MapVjp.cpp): each operand
    receives a map of the cotangent through the body's ops, by a rule per
    scalar op, roundings (`arith.truncf`, `arith.extf`) taken as the
    identity. A gate, `h * silu(z)` or `y * sigmoid(z)`, is a map, and so is
    its gradient; so are Dynamic Tanh's `tanh(alpha * h)` and Derf's
    `erf(alpha * h + shift)`, whose scalars receive sums over every element.

    ```mlir
    %g = norm.map %dy, %gamma stats(%r : tensor<?xf32>)
        : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xf32> {
    ^bb0(%a: bf16, %b: bf16, %c: f32):
      ...
      norm.yield %t : f32
    }
    ```
  }];
  let arguments = (ins
      Variadic<AnyTypeOf<[Norm_AccRows, Norm_AccFeatures]>>:$inputs,
      Variadic<AnyTypeOf<[Norm_RowStats, Norm_Scalar]>>:$stats,
      OptionalAttr<F64Attr>:$fraction);
  let results = (outs AnyTypeOf<[Norm_AccRows, Norm_RowStats]>:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs (`stats` `(` $stats^ `:` type($stats) `)`)?
    (`fraction` $fraction^)? attr-dict `:`
    functional-type($inputs, $result) $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::RankedTensorType getTensorType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getType());
    }
    /// Whether the result is per row (no [rows, d] or [d] operands).
    bool isPerRow() { return getTensorType().getRank() == 1; }
  }];
}

def Norm_CountOp : Norm_Op<"count", [Pure, HasParent<"MapOp">]> {
  let summary = "k = max(1, floor(fraction * d)) inside a norm.map body";
  let arguments = (ins F64Attr:$fraction);
  let results = (outs AnyFloat:$result);
  let assemblyFormat = "`fraction` $fraction attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Norm_YieldOp : Norm_Op<"yield", [Pure, Terminator, HasParent<"MapOp">]> {
  let summary = "The element a norm.map body computes";
  let arguments = (ins AnyFloat:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def Norm_ReduceOp : Norm_Op<"reduce", [Pure]> {
  let summary = "Per-row sum over the first k = max(1, floor(fraction * d)) features";
  let arguments = (ins Norm_AccRows:$input, F64Attr:$fraction);
  let results = (outs Norm_RowStats:$result);
  let assemblyFormat = [{
    $input `fraction` $fraction attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Norm_SumRowsOp : Norm_Op<"sum_rows", [Pure]> {
  let summary = "Per-feature sum over all rows, rounded once to the result type";
  let description = [{
    The gradient of a per-feature parameter: the sum runs in the operand's
    element type over every row, in an order fixed by the schedule, so the
    result is the same bits from run to run. A per-row operand sums to one
    value (`tensor<1xT>`): a scalar parameter's gradient, from the per-row
    sums over its features.
  }];
  let arguments = (ins AnyTypeOf<[Norm_AccRows, Norm_RowStats]>:$input);
  let results = (outs Norm_Features:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

#endif // NORMC_NORM_OPS
