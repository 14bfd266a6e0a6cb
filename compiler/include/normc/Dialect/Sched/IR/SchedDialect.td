//===- SchedDialect.td - The schedule-level dialect --------*- tablegen -*-===//
//
// The `sched` dialect is the row level of *how* a normalization runs on a
// GPU (after convert-norm-to-sched): buffers, whole-row values
// (`!sched.row`) computed by generic `sched.map` and `sched.reduce` ops
// whose bodies are scalar `arith`/`math`, per-row scalars, stores, and the
// schedule a kernel is assigned. Its types, buffers and per-row scalar ops
// are shared with the kernel level, the `kern` dialect
// (normc/Dialect/Kern/IR/KernDialect.td), which convert-sched-to-kern
// produces and the CUDA emitter prints.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_SCHED_DIALECT
#define NORMC_SCHED_DIALECT

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "normc/Dialect/ElementRoles.td"

def Sched_Dialect : Dialect {
  let name = "sched";
  let summary = "Schedule-level dialect: the GPU mapping of a normalization";
  let cppNamespace = "::normc::sched";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

class Sched_Op<string mnemonic, list<Trait> traits = []>
    : Op<Sched_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class Sched_Type<string name, string typeMnemonic, string doc>
    : TypeDef<Sched_Dialect, name> {
  let mnemonic = typeMnemonic;
  let summary = doc;
  let parameters = (ins "mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
  let genVerifyDecl = 1;
}

def Sched_RowsType : Sched_Type<"Rows", "rows",
    "A row-major [rows, d] global buffer with its own row stride">;
def Sched_FeaturesType : Sched_Type<"Features", "features",
    "A per-feature [d] global buffer">;
def Sched_StatsType : Sched_Type<"Stats", "stats",
    "A per-row [rows] global buffer">;
def Sched_RowType : Sched_Type<"Row", "row",
    "One row distributed over the threads that own it">;
def Sched_ChunkType : Sched_Type<"Chunk", "chunk",
    "This thread's vector_width consecutive features of the current chunk">;
def Sched_KeptType : Sched_Type<"Kept", "kept",
    "Storage of one row value between passes (registers or shared memory)">;
def Sched_ScratchType : Sched_Type<"Scratch", "scratch",
    "Static shared memory for the cross-warp step of reductions">;
def Sched_AccumulatorType : Sched_Type<"Accumulator", "accumulator",
    "A running per-thread sum">;
def Sched_ScalarType : Sched_Type<"Scalar", "scalar",
    "A one-element global buffer that every row reads (a static scale)">;
def Sched_PartialsType : Sched_Type<"Partials", "partials",
    "A [blocks, d] global buffer: one row of per-feature sums per block">;
def Sched_GroupsType : Sched_Type<"Groups", "groups",
    "A [rows, ceil(d / G)] global buffer: a value per row and group of G "
    "features (an fp8 output's block scales)">;
def Sched_GroupTableType : Sched_Type<"GroupTable", "group_table",
    "Shared memory for a value per group of each row of the block">;

def Sched_AnyBuffer : AnyTypeOf<[Sched_RowsType, Sched_FeaturesType,
                                 Sched_StatsType, Sched_ScalarType,
                                 Sched_PartialsType, Sched_GroupsType]>;
def Sched_RowOperand : AnyTypeOf<[Sched_RowType, Sched_FeaturesType]>;
def Sched_ChunkSource : AnyTypeOf<[Sched_RowsType, Sched_FeaturesType]>;

//===----------------------------------------------------------------------===//
// The schedule
//===----------------------------------------------------------------------===//

def Sched_KeptStorage : I32EnumAttr<"KeptStorage",
    "where a kept row value lives", [
      I32EnumAttrCase<"registers", 0>,
      I32EnumAttrCase<"shared", 1>
    ]> {
  let cppNamespace = "::normc::sched";
}

def Sched_Combine : I32EnumAttr<"Combine",
    "how a reduction combines its terms", [
      // The sum.
      I32EnumAttrCase<"sum", 0>,
      // The largest term, NaN terms ignored, and at least 0: the amax of
      // magnitudes.
      I32EnumAttrCase<"max", 1>
    ]> {
  let cppNamespace = "::normc::sched";
}
def Sched_CombineOrSum
    : DefaultValuedAttr<Sched_Combine, "::normc::sched::Combine::sum">;

def Sched_ScheduleAttr : AttrDef<Sched_Dialect, "Schedule"> {
  let mnemonic = "schedule";
  let summary = "The GPU mapping of one kernel: a strategy and its parameters";
  let description = [{
    Holds a `normc::Schedule` (abi/include/normc/Abi/Schedule.h), the one
    definition the heuristic, the tuner, packs and the tuning database use,
    and is verified by the same `checkSchedule`:

    ```mlir
    #sched.schedule<row_group, rows_per_block = 1, threads_per_row = 128,
                    vector_width = 8, row_storage = registers>
    ```

    `row_group`: a block runs `rows_per_block * threads_per_row` threads;
    each row is shared by `threads_per_row` threads, which move
    `vector_width` features per access. Row values read more than once stay
    in `registers` (needs d fixed at compile time), in dynamic `shared`
    memory, or are re-read from `global` memory.
  }];
  let parameters = (ins "::normc::Schedule":$value);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // NORMC_SCHED_DIALECT
