//===- Schedule.h - The schedule space, as plain data ---------------------===//
//
// A schedule is a strategy and its parameters. This is the one definition:
// the compiler's #sched.schedule attribute holds a Schedule and verifies it
// with checkSchedule, and packs, the tuning database and the policy that
// chooses one (normc/Policy: the heuristic, the tuner's candidates, the
// cost model) use the same struct and rules. No LLVM needed.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_ABI_SCHEDULE_H
#define NORMC_ABI_SCHEDULE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normc {

/// How rows map onto blocks.
enum class Strategy {
  /// A block holds rows_per_block groups of threads_per_row threads; each
  /// group owns one row at a time (one row per block when rows_per_block is
  /// 1, a warp or less per row for small d).
  RowGroup,
  /// sm_90: a thread-block cluster of cluster_size blocks owns one row at a
  /// time; block r of the cluster handles the r-th slice of the row
  /// (clusterSlice features) with threads_per_row threads, and the blocks
  /// combine their totals through distributed shared memory. One row per
  /// block (rows_per_block = 1) and d fixed at compile time.
  Cluster,
};

/// Where a row value lives between the passes over the row that read it.
enum class RowStorage { Registers, Shared, Global };

std::string_view toString(Strategy strategy);
std::string_view toString(RowStorage storage);
std::optional<Strategy> parseStrategy(std::string_view text);
std::optional<RowStorage> parseRowStorage(std::string_view text);

/// A complete schedule: every field chosen (checkSchedule says whether it
/// is valid for a problem). What a caller asks for, with fields left to the
/// heuristic, is a ScheduleRequest.
struct Schedule {
  Strategy strategy = Strategy::RowGroup;
  int64_t rowsPerBlock = 0;
  int64_t threadsPerRow = 0;
  int64_t vectorWidth = 0;
  RowStorage rowStorage = RowStorage::Global;
  /// Blocks that share a row: cluster_size for the cluster strategy, 1 for
  /// row_group.
  int64_t clusterSize = 1;

  /// A complete row_group schedule.
  /// The kernel that adds per-block partial sums (sched.sum_partials): a
  /// strided loop over the features that every schedule runs alike, so it
  /// is fixed rather than tuned.
  static Schedule forPartialSums() {
    return rowGroup(1, 256, 1, RowStorage::Global);
  }
  static Schedule rowGroup(int64_t rowsPerBlock, int64_t threadsPerRow,
                           int64_t vectorWidth, RowStorage rowStorage) {
    return {Strategy::RowGroup, rowsPerBlock, threadsPerRow,
            vectorWidth,        rowStorage,   1};
  }
  /// A complete cluster schedule.
  static Schedule cluster(int64_t clusterSize, int64_t threadsPerRow,
                          int64_t vectorWidth, RowStorage rowStorage) {
    return {Strategy::Cluster, 1,          threadsPerRow,
            vectorWidth,       rowStorage, clusterSize};
  }
  int64_t blockSize() const { return rowsPerBlock * threadsPerRow; }
  /// Blocks one row is spread over.
  int64_t blocksPerRow() const {
    return strategy == Strategy::Cluster ? clusterSize : 1;
  }
  /// "strategy=row_group,rows_per_block=1,threads_per_row=256,
  /// vector_width=8,row_storage=global"; a cluster schedule has
  /// ",cluster_size=N" after its strategy.
  std::string str() const;
  /// The inverse of str(); nullopt when malformed or a field is missing.
  static std::optional<Schedule> parse(std::string_view text);
  bool operator==(const Schedule &other) const;
  bool operator!=(const Schedule &other) const { return !(*this == other); }
};

/// What a caller asks of a schedule (normc compile's flags, normc-opt's
/// pass options, a test): each field given is kept, each one left out is
/// the heuristic's (completeSchedule, normc/Policy/Heuristic.h). A complete
/// schedule asks for exactly itself.
struct ScheduleRequest {
  /// Cluster, or clusterSize given: the cluster strategy. Row group alone
  /// asks nothing the heuristic would not choose by itself.
  std::optional<Strategy> strategy;
  std::optional<int64_t> rowsPerBlock;
  std::optional<int64_t> threadsPerRow;
  std::optional<int64_t> vectorWidth;
  std::optional<RowStorage> rowStorage;
  std::optional<int64_t> clusterSize;

  ScheduleRequest() = default;
  ScheduleRequest(const Schedule &exactly);
  /// Whether it asks for anything.
  bool empty() const {
    return !strategy && !rowsPerBlock && !threadsPerRow && !vectorWidth &&
           !rowStorage && !clusterSize;
  }
  bool asksCluster() const {
    return strategy == Strategy::Cluster || (!strategy && clusterSize);
  }
};

/// What the schedule space depends on.
struct ScheduleProblem {
  std::optional<int64_t> d; // d, when fixed at compile time
  unsigned widestBits = 32; // widest element of the row/feature buffers
  /// Bits a feature of the row values kept between passes (0: one row of
  /// widestBits), and of the per-feature sums over rows, which live in
  /// registers when the rows do.
  unsigned keptBits = 0;
  unsigned sumBits = 0;
  /// Whether the kernel has values per group of features (block scales).
  bool groups = false;
  /// Whether it stores rows of 8-bit elements (fp8 outputs): chunks of 16
  /// elements make their stores 16 bytes wide, and the wider rows' chunks
  /// are then two to four 128-bit accesses.
  bool bytesRows = false;
  /// The target's SM version (80 for sm_80, 90 for sm_90), 0 when unknown:
  /// clusters need 90, and the heuristic sizes shared memory by it.
  int arch = 0;
  /// Reproducible mode: every schedule chosen must reduce a row in the
  /// same order (normc::checkReproducible, normc/Policy/Heuristic.h).
  bool reproducible = false;
  unsigned keptRowBits() const { return keptBits ? keptBits : widestBits; }
};

/// The most threads a block may have.
constexpr int64_t kMaxBlockThreads = 1024;
/// The widest access of one buffer a thread makes, in bits.
constexpr int64_t kMaxAccessBits = 128;
/// The largest register-kept row slice a thread may hold, in vectors.
constexpr int64_t kMaxRegisterVectors = 32;
/// The widest row a kernel may be specialized for or launched with.
constexpr int64_t kMaxD = int64_t(1) << 24;
// Emitted loops count features in int and step by at most a row's threads
// times a vector (1024 x 16): that never overflows below kMaxD.
static_assert(kMaxD + 1024 * 16 < INT32_MAX,
              "a feature index of the widest row must fit in an int");
/// The most shared memory a block can have (227 KiB, sm_90's opt-in limit);
/// the runtime checks the device's own limit at launch.
constexpr int64_t kMaxSharedBytes = 227 * 1024;

/// 32-bit registers a thread may spend on kept rows when a block has
/// `blockSize` threads: what __launch_bounds__ leaves it (at most 255),
/// less 48 for addresses, indices and temporaries (at 1024 threads ptxas
/// spilled 100 bytes with 32 words kept, and fused_add_rmsnorm 12 bytes
/// with 24 on sm_90 and 8 bytes with 20 on sm_80), 56 at 1024 threads
/// (f32 LayerNorm's slice of a cluster spilled 16 bytes with 16 words).
int64_t keptRegisterBudget(int64_t blockSize);

/// Features of a row one block handles: d for row_group; for a cluster,
/// ceil(d / cluster_size) rounded up to whole passes of the block's
/// threads (threads_per_row * vector_width), so that block r's slice starts
/// at r * clusterSlice and no chunk straddles two slices.
int64_t clusterSlice(int64_t d, int64_t clusterSize, int64_t threadsPerRow,
                     int64_t vectorWidth);
int64_t featuresPerBlock(const Schedule &schedule, int64_t d);

/// Vectors of `vectorWidth` elements a thread handles per row.
int64_t vectorsPerThread(const Schedule &schedule, int64_t d);

/// The most blocks one cluster may have: the portable limit, which every
/// sm_90 device launches without opting in.
constexpr int64_t kMaxClusterSize = 8;

/// Why `schedule` cannot run, or empty when it can. Without a problem only
/// the rules that hold for every kernel are checked (powers of two, whole
/// warps, block size); with one, also those that depend on d and the element
/// sizes (registers need d fixed and few enough vectors a thread, 128-bit
/// accesses at most).
std::string checkSchedule(const Schedule &schedule,
                          const ScheduleProblem *problem = nullptr);

/// The widest chunk a thread moves per access, in bits: 128 (one access of
/// the widest buffer), or with rows of bytes 512 (up to four 128-bit
/// accesses of the widest buffer, so that 16 bytes are stored at once).
int64_t maxChunkBits(const ScheduleProblem &problem);

} // namespace normc

#endif // NORMC_ABI_SCHEDULE_H
