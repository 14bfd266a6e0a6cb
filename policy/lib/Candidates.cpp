//===- Candidates.cpp - The schedules the tuner may measure ---------------===//
#include "normc/Policy/Candidates.h"

#include "RowFit.h"

#include "normc/Abi/Number.h"
#include "normc/Policy/Heuristic.h"

#include <algorithm>

using namespace normc;
using namespace normc::policy;

std::vector<Schedule>
normc::scheduleCandidates(const ScheduleProblem &problem) {
  std::vector<Schedule> out = {defaultSchedule(problem)};
  auto add = [&](Schedule s) {
    if (checkSchedule(s, &problem).empty() &&
        (!problem.reproducible || checkReproducible(s, problem).empty()) &&
        std::find(out.begin(), out.end(), s) == out.end())
      out.push_back(std::move(s));
  };
  int64_t full = defaultVectorWidth(problem);
  for (int64_t width : {full, std::max<int64_t>(1, full / 2)}) {
    // Without d, assume rows wide enough to keep 1024 threads busy.
    int64_t vectors =
        problem.d ? divideCeil(*problem.d, width) : kMaxBlockThreads * 4;
    for (int64_t threads = 1; threads <= kMaxBlockThreads; threads *= 2) {
      if (threads > 32 && vectors * 2 < threads)
        break; // most threads would idle
      if (threads < 32 && vectors > threads * 16)
        continue; // too much work a thread
      for (int64_t block : {kMinBlock, 2 * kMinBlock}) {
        Schedule s = Schedule::rowGroup(std::max<int64_t>(1, block / threads),
                                        threads, width, RowStorage::Global);
        for (RowStorage storage :
             {RowStorage::Registers, RowStorage::Shared, RowStorage::Global}) {
          if (storage == RowStorage::Registers && !fewVectors(s, problem))
            continue;
          s.rowStorage = storage;
          add(s);
        }
      }
    }
  }
  if (problem.arch >= 90 && problem.d && *problem.d >= kMinClusterD)
    for (int64_t blocks = 2; blocks <= kMaxClusterSize; blocks *= 2)
      for (int64_t threads = 256; threads <= kMaxBlockThreads; threads *= 2) {
        Schedule c =
            Schedule::cluster(blocks, threads, full, RowStorage::Registers);
        if (fewVectors(c, problem))
          add(c);
        c.rowStorage = RowStorage::Shared;
        add(c);
      }
  return out;
}
