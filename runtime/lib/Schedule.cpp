//===- Schedule.cpp - The schedule space, as plain data -------------------===//
#include "normc/Runtime/Schedule.h"

#include <algorithm>
#include <charconv>

using namespace normc;

namespace {
constexpr int64_t kVectorsPerThread = 4, kMaxRegisterVectors = 8,
                  kMinBlock = 128, kMaxBlock = 1024;

int64_t divideCeil(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t powerOf2Ceil(int64_t v) {
  int64_t p = 1;
  while (p < v)
    p *= 2;
  return p;
}
} // namespace

std::string Schedule::str() const {
  return "rows_per_block=" + std::to_string(rowsPerBlock) +
         ",threads_per_row=" + std::to_string(threadsPerRow) +
         ",vector_width=" + std::to_string(vectorWidth) +
         ",row_storage=" + rowStorage;
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
    if (key == "row_storage") {
      if (value != "registers" && value != "shared" && value != "global")
        return std::nullopt;
      s.rowStorage = std::string(value);
      seen |= 8;
      continue;
    }
    int64_t number = 0;
    auto [end, ec] =
        std::from_chars(value.data(), value.data() + value.size(), number);
    if (ec != std::errc() || end != value.data() + value.size() || number < 1)
      return std::nullopt;
    if (key == "rows_per_block")
      s.rowsPerBlock = number, seen |= 1;
    else if (key == "threads_per_row")
      s.threadsPerRow = number, seen |= 2;
    else if (key == "vector_width")
      s.vectorWidth = number, seen |= 4;
    else
      return std::nullopt;
  }
  return seen == 15 ? std::optional(s) : std::nullopt;
}

bool Schedule::operator==(const Schedule &o) const {
  return rowsPerBlock == o.rowsPerBlock && threadsPerRow == o.threadsPerRow &&
         vectorWidth == o.vectorWidth && rowStorage == o.rowStorage;
}

int64_t normc::defaultVectorWidth(const ScheduleProblem &problem) {
  return 128 / std::max(8u, problem.widestBits);
}

Schedule normc::defaultSchedule(const ScheduleProblem &problem) {
  int64_t width = defaultVectorWidth(problem);
  if (!problem.cols)
    return {1, 256, width, "global"};
  int64_t vectors = divideCeil(*problem.cols, width);
  int64_t threads = std::clamp<int64_t>(
      powerOf2Ceil(divideCeil(vectors, kVectorsPerThread)), 1, kMaxBlock);
  int64_t rows = std::max<int64_t>(1, kMinBlock / threads);
  return {rows, threads, width,
          divideCeil(vectors, threads) <= kMaxRegisterVectors ? "registers"
                                                              : "global"};
}

std::vector<Schedule>
normc::scheduleCandidates(const ScheduleProblem &problem) {
  std::vector<Schedule> out = {defaultSchedule(problem)};
  auto add = [&](Schedule s) {
    if (std::find(out.begin(), out.end(), s) == out.end())
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
        int64_t rows = std::max<int64_t>(1, block / threads);
        if (rows * threads % 32)
          continue;
        if (problem.cols && divideCeil(vectors, threads) <= kMaxRegisterVectors)
          add({rows, threads, width, "registers"});
        add({rows, threads, width, "shared"});
        add({rows, threads, width, "global"});
      }
    }
  }
  return out;
}
