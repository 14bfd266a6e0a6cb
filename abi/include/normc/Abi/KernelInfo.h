//===- KernelInfo.h - What a host needs to launch an emitted kernel -------===//
//
// Read off the kernel-level sched IR (normc::getLaunchInfo); launchers (CPU
// device, CUDA driver) use it, and packs and caches store it as text. Plain C++
// so that a runtime built without LLVM can launch kernels too.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_ABI_KERNELINFO_H
#define NORMC_ABI_KERNELINFO_H

#include "normc/Abi/Schedule.h"
#include "normc/Abi/SharedLayout.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace normc {

/// One kernel parameter, in order.
struct KernelParam {
  /// Partials: a [blocks * rows_per_block, d] buffer of per-feature sums
  /// (a sched.reduce_rows writes one row per row group of each block; a
  /// later kernel reads them all, taking the number of partial rows as its
  /// `rows`; see planLaunches). Scalar: a one-element buffer read by every
  /// row (an fp8 output's static scale). Groups: a [rows, ceil(d / G)]
  /// buffer, a value per row and group of the kernel's groupSize features
  /// (an fp8 output's block scales).
  enum class Kind {
    Rows,
    RowStride,
    Features,
    Stats,
    Partials,
    Scalar,
    Groups,
    RowCount,
    D
  };
  Kind kind;
  std::string name; // "x", "x_stride", "gamma", "rows", "d"
  /// "bf16", "f16", "f32", "f64", "f8e4m3", "f8e5m2" (empty for integers)
  std::string elementType;
  bool written = false;

  bool isBuffer() const {
    return kind == Kind::Rows || kind == Kind::Features ||
           kind == Kind::Stats || kind == Kind::Partials ||
           kind == Kind::Scalar || kind == Kind::Groups;
  }
};

/// Launch facts of one kernel.
struct KernelLaunchInfo {
  std::string name;
  std::optional<int64_t> d; // d when fixed at compile time
  int64_t blockSize = 0;    // blockDim.x
  int64_t rowsPerBlock = 0;
  int64_t vectorWidth = 0;
  /// Kernels of one module run in increasing launch order on one stream.
  int64_t launchOrder = 0;
  /// Features per group of the kernel's per-group values (Groups buffers
  /// and the shared group table), 0 when it has none.
  int64_t groupSize = 0;
  /// The dynamic shared memory, as kern-allocate-shared placed it.
  SharedLayout shared;
  /// Blocks of a thread-block cluster (the cluster strategy), which share
  /// each row; 1 for a kernel without clusters. The grid is a multiple.
  int64_t clusterSize = 1;
  /// A kernel that writes partials in reproducible mode: the fixed number
  /// of partial rows (kReproduciblePartialRows), whatever the grid; 0: one
  /// partial row per row group of the grid (see planLaunches).
  int64_t partialRows = 0;
  std::vector<KernelParam> params;

  /// gridDim.x that gives every row group its own block (its own cluster);
  /// any smaller multiple of clusterSize is also correct (blocks stride
  /// over row groups).
  int64_t gridFor(int64_t rows) const {
    return std::max<int64_t>(1, (rows + rowsPerBlock - 1) / rowsPerBlock) *
           clusterSize;
  }

  /// Dynamic shared memory in bytes for hidden size d.
  int64_t dynamicSharedBytes(int64_t d) const { return shared.bytes(d); }
};

/// The partial-sum rows of a reproducible kernel (KernelLaunchInfo::
/// partialRows): row r adds to partial row r mod 4096, so the sums over rows
/// depend on the number of rows only, not on the grid, the rows per block or
/// the device's SM count. A multiple of every rows_per_block.
constexpr int64_t kReproduciblePartialRows = 4096;

/// One launch of a module's sequence for (rows, d).
struct KernelLaunch {
  size_t kernel = 0; // index into the sequence
  int64_t grid = 0;  // gridDim.x
  int64_t rows = 0;  // the kernel's `rows` argument
};

/// The launches of `sequence` (in launch order) for [rows, d]. A kernel
/// that writes partials gets gridFor(rows) blocks, at most `maxGrid` (0: no
/// limit) or, with fixed partialRows, at most partialRows / rows_per_block
/// whatever maxGrid says; each partials buffer then holds a row per row
/// group of each block (grid * rows_per_block rows). A later kernel reading
/// them takes as its `rows` those of them that rows reached (at most
/// `rows`: the others hold zeros) and strides over the features. The grid
/// depends on nothing but (rows, d, maxGrid), so the partial sums are the
/// same bits from run to run.
std::vector<KernelLaunch>
planLaunches(const std::vector<KernelLaunchInfo> &sequence, int64_t rows,
             int64_t d, int64_t maxGrid = 0);

/// Rows of every partials buffer of a plan (0 when it has none).
int64_t partialRows(const std::vector<KernelLaunchInfo> &sequence,
                    const std::vector<KernelLaunch> &plan);

/// Bytes of one element of a buffer parameter (0 for integers).
int64_t elementBytes(const KernelParam &param);

/// What a sequence moves per feature of a row: each [rows, d] buffer once,
/// by whether it is written, and the widest of their elements.
struct RowTraffic {
  int64_t readBytes = 0;    // [rows, d] buffers only read
  int64_t writtenBytes = 0; // [rows, d] buffers written
  int64_t widestBytes = 0;
};
RowTraffic rowTraffic(const std::vector<KernelLaunchInfo> &sequence);

/// Bytes a sequence must move per element of [rows, d] at least: each
/// [rows, d] buffer it reads or writes once (the floor a benchmark holds
/// it to against the copy limit; parameters and partial sums are O(d)).
int64_t rowBytesPerElement(const std::vector<KernelLaunchInfo> &sequence);

/// One line of text ("name=... d=... params=x:rows:bf16:r,..."), as
/// kernel packs store it, and back (nullopt when malformed).
std::string toText(const KernelLaunchInfo &info);
std::optional<KernelLaunchInfo> kernelInfoFromText(const std::string &text);

} // namespace normc

#endif // NORMC_ABI_KERNELINFO_H
