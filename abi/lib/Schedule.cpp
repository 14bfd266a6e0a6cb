//===- Schedule.cpp - The schedule space, as plain data -------------------===//
#include "normc/Abi/Schedule.h"

#include "normc/Abi/Number.h"
#include "normc/Abi/SharedLayout.h"

#include <algorithm>
#include <charconv>

using namespace normc;

std::string_view normc::toString(Strategy strategy) {
  switch (strategy) {
  case Strategy::RowGroup:
    return "row_group";
  case Strategy::Cluster:
    return "cluster";
  }
  return "";
}

std::string_view normc::toString(RowStorage storage) {
  switch (storage) {
  case RowStorage::Registers:
    return "registers";
  case RowStorage::Shared:
    return "shared";
  case RowStorage::Global:
    return "global";
  }
  return "";
}

std::optional<Strategy> normc::parseStrategy(std::string_view text) {
  for (Strategy s : {Strategy::RowGroup, Strategy::Cluster})
    if (text == toString(s))
      return s;
  return std::nullopt;
}

std::optional<RowStorage> normc::parseRowStorage(std::string_view text) {
  for (RowStorage s :
       {RowStorage::Registers, RowStorage::Shared, RowStorage::Global})
    if (text == toString(s))
      return s;
  return std::nullopt;
}

std::string Schedule::str() const {
  return "strategy=" + std::string(toString(strategy)) +
         (strategy == Strategy::Cluster
              ? ",cluster_size=" + std::to_string(clusterSize)
              : "") +
         ",rows_per_block=" + std::to_string(rowsPerBlock) +
         ",threads_per_row=" + std::to_string(threadsPerRow) +
         ",vector_width=" + std::to_string(vectorWidth) +
         ",row_storage=" + std::string(toString(rowStorage));
}

std::optional<Schedule> Schedule::parse(std::string_view text) {
  Schedule s;
  int seen = 0;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view field = text.substr(0, comma);
    text = comma == std::string_view::npos ? "" : text.substr(comma + 1);
    size_t eq = field.find('=');
    if (eq == std::string_view::npos)
      return std::nullopt;
    std::string_view key = field.substr(0, eq), value = field.substr(eq + 1);
    int bit = 0;
    if (key == "strategy") {
      std::optional<Strategy> strategy = parseStrategy(value);
      if (!strategy)
        return std::nullopt;
      s.strategy = *strategy, bit = 1;
    } else if (key == "row_storage") {
      std::optional<RowStorage> storage = parseRowStorage(value);
      if (!storage)
        return std::nullopt;
      s.rowStorage = *storage, bit = 2;
    } else {
      int64_t number = 0;
      auto [end, ec] =
          std::from_chars(value.data(), value.data() + value.size(), number);
      if (ec != std::errc() || end != value.data() + value.size() || number < 1)
        return std::nullopt;
      if (key == "rows_per_block")
        s.rowsPerBlock = number, bit = 4;
      else if (key == "threads_per_row")
        s.threadsPerRow = number, bit = 8;
      else if (key == "vector_width")
        s.vectorWidth = number, bit = 16;
      else if (key == "cluster_size")
        s.clusterSize = number, bit = 32;
      else
        return std::nullopt;
    }
    if (seen & bit)
      return std::nullopt; // a field given twice
    seen |= bit;
  }
  // cluster_size belongs to the cluster strategy, and only to it.
  bool cluster = s.strategy == Strategy::Cluster;
  if (seen != (cluster ? 63 : 31))
    return std::nullopt;
  if (!cluster)
    s.clusterSize = 1;
  return s;
}

ScheduleRequest::ScheduleRequest(const Schedule &exactly)
    : strategy(exactly.strategy), rowsPerBlock(exactly.rowsPerBlock),
      threadsPerRow(exactly.threadsPerRow), vectorWidth(exactly.vectorWidth),
      rowStorage(exactly.rowStorage) {
  if (exactly.strategy == Strategy::Cluster)
    clusterSize = exactly.clusterSize;
}

bool Schedule::operator==(const Schedule &o) const {
  return strategy == o.strategy && rowsPerBlock == o.rowsPerBlock &&
         threadsPerRow == o.threadsPerRow && vectorWidth == o.vectorWidth &&
         rowStorage == o.rowStorage && blocksPerRow() == o.blocksPerRow();
}

int64_t normc::clusterSlice(int64_t d, int64_t clusterSize,
                            int64_t threadsPerRow, int64_t vectorWidth) {
  int64_t pass = threadsPerRow * vectorWidth;
  return divideCeil(divideCeil(d, clusterSize), pass) * pass;
}

int64_t normc::featuresPerBlock(const Schedule &s, int64_t d) {
  return s.strategy == Strategy::Cluster
             ? clusterSlice(d, s.clusterSize, s.threadsPerRow, s.vectorWidth)
             : d;
}

int64_t normc::vectorsPerThread(const Schedule &s, int64_t d) {
  return divideCeil(divideCeil(featuresPerBlock(s, d), s.vectorWidth),
                    s.threadsPerRow);
}

int64_t normc::keptRegisterBudget(int64_t blockSize) {
  int64_t reserved = blockSize >= 1024 ? 56 : 48;
  return std::min<int64_t>(255, 65536 / std::max<int64_t>(1, blockSize)) -
         reserved;
}

std::string normc::checkSchedule(const Schedule &s,
                                 const ScheduleProblem *problem) {
  auto str = [](int64_t v) { return std::to_string(v); };
  if (!isPowerOfTwo(s.threadsPerRow) || s.threadsPerRow > kMaxBlockThreads)
    return "threads_per_row must be a power of two in [1, 1024], got " +
           str(s.threadsPerRow);
  // Checked before multiplying, so that the product cannot overflow.
  if (s.rowsPerBlock < 1 || s.rowsPerBlock > kMaxBlockThreads ||
      s.blockSize() > kMaxBlockThreads)
    return "rows_per_block * threads_per_row must be in [1, 1024], got " +
           str(s.rowsPerBlock) + " * " + str(s.threadsPerRow);
  // Warp shuffles use the full-warp mask: every warp must be complete.
  if (s.blockSize() % 32 != 0)
    return "a block must hold whole warps, got " + str(s.blockSize()) +
           " threads";
  if (!isPowerOfTwo(s.vectorWidth) || s.vectorWidth > 16)
    return "vector_width must be a power of two in [1, 16], got " +
           str(s.vectorWidth);
  if (s.strategy == Strategy::Cluster) {
    if (!isPowerOfTwo(s.clusterSize) || s.clusterSize < 2 ||
        s.clusterSize > kMaxClusterSize)
      return "cluster_size must be a power of two in [2, " +
             str(kMaxClusterSize) + "], got " + str(s.clusterSize);
    if (s.rowsPerBlock != 1)
      return "a cluster owns one row at a time: rows_per_block must be 1, "
             "got " +
             str(s.rowsPerBlock);
  } else if (s.clusterSize > 1) {
    return "cluster_size " + str(s.clusterSize) + " needs strategy cluster";
  }
  if (!problem)
    return "";
  if (s.strategy == Strategy::Cluster) {
    if (!problem->d)
      return "strategy cluster needs d fixed at compile time";
    if (problem->arch && problem->arch < 90)
      return "strategy cluster needs sm_90 or newer, the target is sm_" +
             str(problem->arch);
    // A block holds a slice of each row; these need whole rows.
    if (problem->sumBits || problem->groups)
      return "strategy cluster cannot spread per-feature sums over rows or "
             "per-group values over the blocks of a cluster";
  }
  if (s.vectorWidth * problem->widestBits > maxChunkBits(*problem))
    return "vector_width " + str(s.vectorWidth) + " exceeds " +
           str(maxChunkBits(*problem)) + " bits for " +
           str(problem->widestBits) + "-bit elements";
  if (s.rowStorage == RowStorage::Shared && problem->d) {
    // The kept rows as one region; the compiler checks the exact layout.
    int64_t bytes = keptRowRegion(s, problem->d, problem->keptRowBits() / 8)
                        .bytes(*problem->d);
    if (bytes > kMaxSharedBytes)
      return "row_storage = shared needs " + str(bytes) +
             " bytes of shared memory, more than a block can have (" +
             str(kMaxSharedBytes) + ")";
  }
  if (s.rowStorage == RowStorage::Registers) {
    if (!problem->d)
      return "row_storage = registers needs d fixed at compile time";
    int64_t vectors = vectorsPerThread(s, *problem->d);
    if (vectors > kMaxRegisterVectors)
      return "row_storage = registers would keep " + str(vectors) +
             " vectors per thread (at most " + str(kMaxRegisterVectors) +
             "); use more threads per row or another row_storage";
    int64_t words = vectors * s.vectorWidth *
                    (problem->keptRowBits() + problem->sumBits) / 32;
    if (words > keptRegisterBudget(s.blockSize()))
      return "row_storage = registers would keep " + str(words) +
             " registers a thread, more than the " +
             str(keptRegisterBudget(s.blockSize())) + " a block of " +
             str(s.blockSize()) + " threads leaves; use another row_storage";
  }
  return "";
}

int64_t normc::maxChunkBits(const ScheduleProblem &problem) {
  return problem.bytesRows ? 4 * kMaxAccessBits : kMaxAccessBits;
}
