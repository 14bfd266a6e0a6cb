//===- Tuner.h - Choose a schedule per shape, and remember it -------------===//
#ifndef NORMC_LIB_API_TUNER_H
#define NORMC_LIB_API_TUNER_H

#include "Backend.h"
#include "normc/Runtime/Cache/DiskCache.h"

#include <functional>

namespace normc::api {

/// Rows are tuned in buckets: the next power of two, from 1 to 65536.
int64_t rowsBucket(int64_t rows);

/// The tuning database: one entry per (device, spec, program, d, rows
/// bucket, normc version), holding the winning schedule, in the disk cache's
/// "tuning" folder, so that processes share it without locks.
class TuningDatabase {
public:
  explicit TuningDatabase(const std::string &cacheDir);
  std::optional<Schedule> lookup(const std::string &deviceKey,
                                 const std::string &canonicalSpec,
                                 const Program &program, int64_t d,
                                 int64_t rows) const;
  /// lookup(), else the winner of a neighbouring bucket (half or twice the
  /// rows): what a first call for a new bucket uses rather than tune again.
  std::optional<Schedule> lookupNear(const std::string &deviceKey,
                                     const std::string &canonicalSpec,
                                     const Program &program, int64_t d,
                                     int64_t rows) const;
  void store(const std::string &deviceKey, const std::string &canonicalSpec,
             const Program &program, int64_t d, int64_t rows,
             const Schedule &winner) const;

private:
  std::string key(const std::string &deviceKey,
                  const std::string &canonicalSpec, const Program &program,
                  int64_t d, int64_t rows) const;
  cache::DiskCache entries;
};

/// Runs body(0) ... body(count - 1) on up to `threads` threads (0: one per
/// hardware thread), and returns when all are done. `body` must not throw.
void forEachInParallel(size_t count, const std::function<void(size_t)> &body,
                       unsigned threads = 0);

/// Measures the heuristic default and the candidates the cost model ranks
/// best (pruneCandidates: kTunedCandidates in all; those that fail to
/// compile or load are reported and skipped); the report's winner is the
/// fastest, or the first (the default) when none could be measured.
/// `winnerKernel` receives the loaded winner.
TuneReport
tuneCandidates(Backend &backend, const KernelSource &source,
               const std::string &canonicalSpec, const Program &program,
               int64_t d, int64_t rows,
               std::shared_ptr<LoadedKernel> &winnerKernel,
               const std::function<void(const TuneResult &)> &progress = {});

} // namespace normc::api

#endif // NORMC_LIB_API_TUNER_H
