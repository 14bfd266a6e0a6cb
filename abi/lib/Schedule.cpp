//===- Schedule.cpp - The schedule space, as plain data -------------------===//
#include "normc/Abi/Schedule.h"

#include <algorithm>
#include <charconv>

using namespace normc;

namespace {
constexpr int64_t kVectorsPerThread = 4, kDefaultRegisterVectors = 8,
                  kMinBlock = 128, kMaxBlock = 1024, kMaxVectorBits = 128;

int64_t divideCeil(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t powerOf2Ceil(int64_t v) {
  int64_t p = 1;
  while (p < v)
    p *= 2;
  return p;
}
bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }
} // namespace

std::string_view normc::toString(Strategy strategy) {
  switch (strategy) {
  case Strategy::RowGroup:
    return "row_group";
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
  if (text == toString(Strategy::RowGroup))
    return Strategy::RowGroup;
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
         ",rows_per_block=" + std::to_string(rowsPerBlock) +
         ",threads_per_row=" + std::to_string(threadsPerRow) +
         ",vector_width=" + std::to_string(vectorWidth) +
         ",row_storage=" + std::string(rowStorage ? toString(*rowStorage) : "");
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
      s.rowStorage = parseRowStorage(value);
      if (!s.rowStorage)
        return std::nullopt;
      bit = 2;
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
      else
        return std::nullopt;
    }
    if (seen & bit)
      return std::nullopt; // a field given twice
    seen |= bit;
  }
  return seen == 31 ? std::optional(s) : std::nullopt;
}

bool Schedule::operator==(const Schedule &o) const {
  return strategy == o.strategy && rowsPerBlock == o.rowsPerBlock &&
         threadsPerRow == o.threadsPerRow && vectorWidth == o.vectorWidth &&
         rowStorage == o.rowStorage;
}

int64_t normc::vectorsPerThread(const Schedule &s, int64_t cols) {
  return divideCeil(divideCeil(cols, s.vectorWidth), s.threadsPerRow);
}

int64_t normc::keptRegisterBudget(int64_t blockSize) {
  return std::min<int64_t>(255, 65536 / std::max<int64_t>(1, blockSize)) - 48;
}

std::string normc::checkSchedule(const Schedule &s,
                                 const ScheduleProblem *problem) {
  auto str = [](int64_t v) { return std::to_string(v); };
  if (!isPowerOfTwo(s.threadsPerRow) || s.threadsPerRow > kMaxBlock)
    return "threads_per_row must be a power of two in [1, 1024], got " +
           str(s.threadsPerRow);
  // Checked before multiplying, so that the product cannot overflow.
  if (s.rowsPerBlock < 1 || s.rowsPerBlock > kMaxBlock ||
      s.blockSize() > kMaxBlock)
    return "rows_per_block * threads_per_row must be in [1, 1024], got " +
           str(s.rowsPerBlock) + " * " + str(s.threadsPerRow);
  // Warp shuffles use the full-warp mask: every warp must be complete.
  if (s.blockSize() % 32 != 0)
    return "a block must hold whole warps, got " + str(s.blockSize()) +
           " threads";
  if (!isPowerOfTwo(s.vectorWidth) || s.vectorWidth > 16)
    return "vector_width must be a power of two in [1, 16], got " +
           str(s.vectorWidth);
  if (!s.rowStorage)
    return "row_storage is missing";
  if (!problem)
    return "";
  if (s.vectorWidth * problem->widestBits > kMaxVectorBits)
    return "vector_width " + str(s.vectorWidth) + " exceeds 128 bits for " +
           str(problem->widestBits) + "-bit elements";
  if (*s.rowStorage == RowStorage::Shared && problem->cols) {
    // The kept rows; the compiler checks the exact layout.
    int64_t pitch = divideCeil(*problem->cols, s.vectorWidth) * s.vectorWidth;
    int64_t bytes = s.rowsPerBlock * pitch * problem->keptRowBits() / 8;
    if (bytes > kMaxSharedBytes)
      return "row_storage = shared needs " + str(bytes) +
             " bytes of shared memory, more than a block can have (" +
             str(kMaxSharedBytes) + ")";
  }
  if (*s.rowStorage == RowStorage::Registers) {
    if (!problem->cols)
      return "row_storage = registers needs cols fixed at compile time";
    int64_t vectors = vectorsPerThread(s, *problem->cols);
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

int64_t normc::defaultVectorWidth(const ScheduleProblem &problem) {
  return kMaxVectorBits / std::max(8u, problem.widestBits);
}

Schedule normc::defaultSchedule(const ScheduleProblem &problem) {
  int64_t width = defaultVectorWidth(problem);
  Schedule s;
  s.vectorWidth = width;
  if (!problem.cols) {
    s.rowsPerBlock = 1, s.threadsPerRow = 256;
    s.rowStorage = RowStorage::Global;
    return s;
  }
  int64_t vectors = divideCeil(*problem.cols, width);
  s.threadsPerRow = std::clamp<int64_t>(
      powerOf2Ceil(divideCeil(vectors, kVectorsPerThread)), 1, kMaxBlock);
  s.rowsPerBlock = std::max<int64_t>(1, kMinBlock / s.threadsPerRow);
  s.rowStorage = RowStorage::Registers;
  if (divideCeil(vectors, s.threadsPerRow) > kDefaultRegisterVectors ||
      !checkSchedule(s, &problem).empty())
    s.rowStorage = RowStorage::Global;
  return s;
}

Schedule normc::completeSchedule(const Schedule &options,
                                 const ScheduleProblem &problem) {
  Schedule chosen = defaultSchedule(problem);
  Schedule s = options;
  if (!s.threadsPerRow)
    s.threadsPerRow = chosen.threadsPerRow;
  if (!s.rowsPerBlock)
    s.rowsPerBlock =
        options.threadsPerRow
            ? std::max<int64_t>(1, kMinBlock / options.threadsPerRow)
            : chosen.rowsPerBlock;
  if (!s.vectorWidth)
    s.vectorWidth = chosen.vectorWidth;
  if (!s.rowStorage)
    s.rowStorage = chosen.rowStorage;
  return s;
}

std::vector<Schedule>
normc::scheduleCandidates(const ScheduleProblem &problem) {
  std::vector<Schedule> out = {defaultSchedule(problem)};
  auto add = [&](Schedule s) {
    if (checkSchedule(s, &problem).empty() &&
        std::find(out.begin(), out.end(), s) == out.end())
      out.push_back(std::move(s));
  };
  int64_t full = defaultVectorWidth(problem);
  for (int64_t width : {full, std::max<int64_t>(1, full / 2)}) {
    // Without d, assume rows wide enough to keep 1024 threads busy.
    int64_t vectors =
        problem.cols ? divideCeil(*problem.cols, width) : kMaxBlock * 4;
    for (int64_t threads = 1; threads <= kMaxBlock; threads *= 2) {
      if (threads > 32 && vectors * 2 < threads)
        break; // most threads would idle
      if (threads < 32 && vectors > threads * 16)
        continue; // too much work a thread
      for (int64_t block : {kMinBlock, 2 * kMinBlock}) {
        Schedule s;
        s.rowsPerBlock = std::max<int64_t>(1, block / threads);
        s.threadsPerRow = threads;
        s.vectorWidth = width;
        bool fewVectors = problem.cols && divideCeil(vectors, threads) <=
                                              kDefaultRegisterVectors;
        for (RowStorage storage :
             {RowStorage::Registers, RowStorage::Shared, RowStorage::Global}) {
          if (storage == RowStorage::Registers && !fewVectors)
            continue;
          s.rowStorage = storage;
          add(s);
        }
      }
    }
  }
  return out;
}
