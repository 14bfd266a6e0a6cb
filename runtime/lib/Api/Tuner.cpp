//===- Tuner.cpp - Choose a schedule per shape, and remember it -----------===//
#include "Tuner.h"
#include "normc/Abi/Version.h"
#include "normc/Policy/CostModel.h"

#include <algorithm>
#include <atomic>
#include <thread>

using namespace normc;
using namespace normc::api;

void api::forEachInParallel(size_t count,
                            const std::function<void(size_t)> &body,
                            unsigned threads) {
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<size_t>(threads, count));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < count; i = next++)
      body(i);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(work);
  work();
  for (std::thread &t : pool)
    t.join();
}

int64_t api::rowsBucket(int64_t rows) {
  int64_t bucket = 1;
  while (bucket < rows && bucket < 65536)
    bucket *= 2;
  return bucket;
}

TuningDatabase::TuningDatabase(const std::string &cacheDir)
    : entries(cacheDir, "tuning") {}

std::string TuningDatabase::key(const std::string &deviceKey,
                                const std::string &canonicalSpec,
                                const Program &program, int64_t d,
                                int64_t rows) const {
  return cache::KeyBuilder()
      .add("device", deviceKey)
      .add("spec", canonicalSpec)
      .add("program", program.str())
      .add("d", std::to_string(d))
      .add("rows", std::to_string(rowsBucket(rows)))
      .add("normc", kVersion)
      .hex();
}

std::optional<Schedule> TuningDatabase::lookup(const std::string &deviceKey,
                                               const std::string &canonicalSpec,
                                               const Program &program,
                                               int64_t d, int64_t rows) const {
  std::optional<std::string> entry =
      entries.get(key(deviceKey, canonicalSpec, program, d, rows));
  return entry ? Schedule::parse(*entry) : std::nullopt;
}

std::optional<Schedule> TuningDatabase::lookupNear(
    const std::string &deviceKey, const std::string &canonicalSpec,
    const Program &program, int64_t d, int64_t rows) const {
  int64_t bucket = rowsBucket(rows);
  for (int64_t near : {bucket, bucket / 2, bucket * 2})
    if (near >= 1 && near <= 65536)
      if (auto hit = lookup(deviceKey, canonicalSpec, program, d, near))
        return hit;
  return std::nullopt;
}

void TuningDatabase::store(const std::string &deviceKey,
                           const std::string &canonicalSpec,
                           const Program &program, int64_t d, int64_t rows,
                           const Schedule &winner) const {
  entries.put(key(deviceKey, canonicalSpec, program, d, rows), winner.str());
}

TuneReport
api::tuneCandidates(Backend &backend, const KernelSource &source,
                    const std::string &canonicalSpec, const Program &program,
                    int64_t d, int64_t rows,
                    std::shared_ptr<LoadedKernel> &winnerKernel,
                    const std::function<void(const TuneResult &)> &progress) {
  TuneReport report;
  double best = -1;
  int64_t bucket = rowsBucket(rows);
  // Only the default and the few others the cost model ranks best are
  // compiled (NVRTC takes about 0.3 s a kernel), all first and in
  // parallel; loading and measuring then hit the cache, one at a time so
  // that timings do not disturb each other.
  std::vector<Schedule> schedules =
      source.schedules(program, d, backend.smVersion());
  std::vector<std::optional<Candidate>> candidates(schedules.size());
  std::vector<std::string> emitErrors(schedules.size());
  auto emit = [&](size_t i) {
    try {
      candidates[i] = source.kernel(program, d, schedules[i]);
    } catch (const Error &error) {
      emitErrors[i] = error.what();
    }
  };
  emit(0);
  if (candidates[0]) {
    schedules = pruneCandidates(schedules, rowTraffic(candidates[0]->kernels),
                                d, bucket, backend.smVersion(),
                                source.spec().reproducible.value);
    candidates.resize(schedules.size());
    emitErrors.resize(schedules.size());
  }
  for (size_t i = 1; i < schedules.size(); ++i)
    emit(i);
  forEachInParallel(candidates.size(), [&](size_t i) {
    if (candidates[i])
      backend.compile(*candidates[i], canonicalSpec, d);
  });
  for (size_t i = 0; i < schedules.size(); ++i) {
    TuneResult result{schedules[i].str(), -1, emitErrors[i]};
    if (!candidates[i]) {
      if (progress)
        progress(result);
      report.candidates.push_back(std::move(result));
      continue;
    }
    try {
      std::shared_ptr<LoadedKernel> kernel =
          backend.load(*candidates[i], canonicalSpec, d);
      result.milliseconds = backend.measure(*kernel, bucket, d);
      if (best < 0 || result.milliseconds < best) {
        best = result.milliseconds;
        report.winner = result.schedule;
        winnerKernel = kernel;
      }
    } catch (const Error &error) {
      result.note = error.what();
    }
    if (progress)
      progress(result);
    report.candidates.push_back(std::move(result));
  }
  if (report.winner.empty())
    throw Error("no schedule candidate of the " + program.str() + " of '" +
                source.spec().name.value +
                "' runs for d = " + std::to_string(d) + ": " +
                (report.candidates.empty() ? std::string("none")
                                           : report.candidates[0].note));
  return report;
}
