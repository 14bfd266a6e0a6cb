//===- Heuristic.cpp - The schedule used when nothing is tuned ------------===//
#include "normc/Policy/Heuristic.h"

#include "RowFit.h"

#include "normc/Abi/Number.h"
#include "normc/Abi/SharedLayout.h"

#include <algorithm>
#include <string>

using namespace normc;
using namespace normc::policy;

int64_t normc::sharedBudget(int arch) {
  if (arch >= 90)
    return kMaxSharedBytes;
  if (arch == 80 || arch == 87)
    return 163 * 1024;
  return 99 * 1024; // sm_86, sm_89, and any device of at least sm_80
}

int64_t normc::defaultVectorWidth(const ScheduleProblem &problem) {
  return std::min<int64_t>(16, maxChunkBits(problem) /
                                   std::max(8u, problem.widestBits));
}

bool policy::fewVectors(const Schedule &s, const ScheduleProblem &problem) {
  return problem.d &&
         vectorsPerThread(s, *problem.d) * s.vectorWidth * problem.widestBits <=
             kDefaultRegisterVectors * kMaxAccessBits;
}

int64_t policy::threadsFor(int64_t features, int64_t width,
                           int64_t minThreads) {
  return std::clamp<int64_t>(
      powerOf2Ceil(divideCeil(divideCeil(features, width), kVectorsPerThread)),
      minThreads, kMaxBlockThreads);
}

namespace {
/// Where the heuristic keeps a row of `s` (its storage left unset):
/// registers for at most eight vectors a thread, else shared memory within
/// the arch's budget; nullopt when neither holds.
std::optional<RowStorage> keptStorage(Schedule s,
                                      const ScheduleProblem &problem) {
  s.rowStorage = RowStorage::Registers;
  if (fewVectors(s, problem) && checkSchedule(s, &problem).empty())
    return s.rowStorage;
  s.rowStorage = RowStorage::Shared;
  if (keptRowRegion(s, problem.d, problem.keptRowBits() / 8)
              .bytes(*problem.d) <= sharedBudget(problem.arch) &&
      checkSchedule(s, &problem).empty())
    return s.rowStorage;
  return std::nullopt;
}
} // namespace

RowShape normc::defaultRowShape(const ScheduleProblem &problem) {
  int64_t width = defaultVectorWidth(problem);
  return {problem.d ? threadsFor(*problem.d, width, 1) : 256, width};
}

std::string normc::checkReproducible(const Schedule &schedule,
                                     const ScheduleProblem &problem) {
  // Every row group computes the one tree over the feature index; a cluster
  // does where each block's slice is an aligned subtree of it.
  if (schedule.strategy == Strategy::RowGroup)
    return "";
  int64_t slice = problem.d ? featuresPerBlock(schedule, *problem.d) : 0;
  if (problem.d && isPowerOfTwo(slice) && schedule.threadsPerRow >= 32)
    return "";
  return "reproducible mode adds a row's features in one tree, which a "
         "cluster computes only where each block's slice of the row is a "
         "power of two of features and has a warp or more" +
         (problem.d
              ? "; at d = " + std::to_string(*problem.d) + " the slice of " +
                    schedule.str() + " is " + std::to_string(slice)
              : std::string("; d is not fixed"));
}

Schedule normc::defaultSchedule(const ScheduleProblem &problem) {
  RowShape shape = defaultRowShape(problem);
  // With d at run time, re-read from global memory, which fits every d (the
  // runtime prefers the same schedule with the row in shared memory where
  // d fits the device).
  Schedule s = Schedule::rowGroup(1, shape.threadsPerRow, shape.vectorWidth,
                                  RowStorage::Global);
  if (!problem.d)
    return s;
  s.rowsPerBlock = std::max<int64_t>(1, kMinBlock / s.threadsPerRow);
  if (std::optional<RowStorage> kept = keptStorage(s, problem)) {
    s.rowStorage = *kept;
    return s;
  }
  int64_t width = shape.vectorWidth;
  // Registers in the smallest cluster that has enough of them, else shared
  // memory in the smallest one where it fits.
  if (problem.arch >= 90)
    for (RowStorage storage : {RowStorage::Registers, RowStorage::Shared})
      for (int64_t blocks = 2; blocks <= kMaxClusterSize; blocks *= 2) {
        int64_t threads = threadsFor(divideCeil(*problem.d, blocks), width,
                                     /*minThreads=*/32);
        Schedule c = Schedule::cluster(blocks, threads, width, storage);
        if (keptStorage(c, problem) == storage &&
            (!problem.reproducible || checkReproducible(c, problem).empty()))
          return c;
      }
  s.rowStorage = RowStorage::Global;
  return s;
}

Schedule normc::completeSchedule(const ScheduleRequest &request,
                                 const ScheduleProblem &problem) {
  Schedule chosen = defaultSchedule(problem);
  bool cluster = request.asksCluster();
  if (!cluster && !request.rowsPerBlock && !request.threadsPerRow &&
      !request.vectorWidth && !request.rowStorage)
    return chosen; // nothing asked: the heuristic's, cluster or not
  Schedule s;
  s.strategy = cluster ? Strategy::Cluster : Strategy::RowGroup;
  s.clusterSize =
      !cluster
          ? 1
          : request.clusterSize.value_or(
                chosen.strategy == Strategy::Cluster ? chosen.clusterSize : 2);
  s.threadsPerRow = request.threadsPerRow.value_or(chosen.threadsPerRow);
  // A cluster owns one row at a time; with only threads_per_row given,
  // blocks keep at least kMinBlock threads (checkSchedule refuses a
  // threads_per_row below 1).
  if (request.rowsPerBlock)
    s.rowsPerBlock = *request.rowsPerBlock;
  else if (cluster)
    s.rowsPerBlock = 1;
  else if (request.threadsPerRow)
    s.rowsPerBlock =
        std::max<int64_t>(1, kMinBlock / std::max<int64_t>(1, s.threadsPerRow));
  else
    s.rowsPerBlock = chosen.rowsPerBlock;
  s.vectorWidth = request.vectorWidth.value_or(chosen.vectorWidth);
  s.rowStorage = request.rowStorage.value_or(chosen.rowStorage);
  return s;
}
