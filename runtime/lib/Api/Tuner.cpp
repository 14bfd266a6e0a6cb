//===- Tuner.cpp - Choose a schedule per shape, and remember it -----------===//
#include "Tuner.h"
#include "normc/Abi/Version.h"

using namespace normc;
using namespace normc::api;

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
  for (const Schedule &schedule : source.schedules(program, d)) {
    TuneResult result{schedule.str(), -1, ""};
    try {
      std::shared_ptr<LoadedKernel> kernel =
          backend.load(source.kernel(program, d, schedule), canonicalSpec, d);
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
