//===- SchedDialect.td - The schedule-level dialect --------*- tablegen -*-===//
//
// The `sched` dialect says *how* a normalization runs on a GPU: which buffers
// the kernel takes, which rows a block owns, how many threads share a row,
// how wide each load is, and where the row lives between the reductions and
// the write. Scalar per-row arithmetic uses `arith` and `math` ops.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_SCHED_DIALECT
#define NORMC_SCHED_DIALECT

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

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

def Sched_StorageFloat : AnyTypeOf<[F32, F16, BF16]>;
def Sched_AccumulateFloat : AnyTypeOf<[F64, F32, F16, BF16]>;

class Sched_Type<string name, string typeMnemonic, string doc>
    : TypeDef<Sched_Dialect, name> {
  let mnemonic = typeMnemonic;
  let summary = doc;
  let parameters = (ins "mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

def Sched_RowsType : Sched_Type<"Rows", "rows",
    "A row-major [rows, d] global buffer with its own row stride">;
def Sched_FeaturesType : Sched_Type<"Features", "features",
    "A per-feature [d] global buffer">;
def Sched_StatsType : Sched_Type<"Stats", "stats",
    "A per-row [rows] global buffer">;
def Sched_RowType : Sched_Type<"Row", "row",
    "One row distributed over the threads that own it">;

def Sched_AnyBuffer : AnyTypeOf<[Sched_RowsType, Sched_FeaturesType,
                                 Sched_StatsType]>;

//===----------------------------------------------------------------------===//
// The schedule
//===----------------------------------------------------------------------===//

def Sched_RowStorage : I32EnumAttr<"RowStorage",
    "where a row lives between its reductions and its write", [
      I32EnumAttrCase<"registers", 0>,
      I32EnumAttrCase<"shared", 1>,
      I32EnumAttrCase<"global", 2>
    ]> {
  let cppNamespace = "::normc::sched";
  let genSpecializedAttr = 0;
}

def Sched_ScheduleAttr : AttrDef<Sched_Dialect, "Schedule"> {
  let mnemonic = "schedule";
  let summary = "The GPU mapping of one kernel: plain data a tuner enumerates";
  let description = [{
    A block runs `rows_per_block * threads_per_row` threads; each row is
    shared by `threads_per_row` threads, which move `vector_width` features
    per access (one 128-bit access for bf16 at width 8). The row's values stay
    in `registers` (needs d fixed at compile time), in dynamic `shared`
    memory, or are re-read from `global` memory for each pass.
  }];
  let parameters = (ins "int64_t":$rowsPerBlock, "int64_t":$threadsPerRow,
                        "int64_t":$vectorWidth,
                        "::normc::sched::RowStorage":$rowStorage);
  let assemblyFormat = [{
    `<` `rows_per_block` `=` $rowsPerBlock `,`
        `threads_per_row` `=` $threadsPerRow `,`
        `vector_width` `=` $vectorWidth `,`
        `row_storage` `=` $rowStorage `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getBlockSize() const {
      return getRowsPerBlock() * getThreadsPerRow();
    }
  }];
}

#endif // NORMC_SCHED_DIALECT
