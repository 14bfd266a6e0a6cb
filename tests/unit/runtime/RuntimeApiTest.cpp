//===- RuntimeApiTest.cpp - The public API on the CPU device --------------===//
//
// JIT, caches (hit, miss, corruption, layout-insensitive keys, concurrent
// processes), the tuning database and its reuse, packs, and errors.
//
//===----------------------------------------------------------------------===//
#include "KernelSource.h"
#include "Tuner.h"
#include "normc/Abi/Schedule.h"
#include "normc/Abi/Version.h"
#include "normc/Policy/CostModel.h"
#include "normc/Policy/Heuristic.h"
#include "normc/Reference/Reference.h"
#include "normc/Runtime/Cache/DiskCache.h"
#include "normc/Runtime/Cuda/CudaDriver.h"
#include "normc/Runtime/Host/HostData.h"
#include "normc/Runtime/Host/Pack.h"
#include "normc/Runtime/Jit/BuildPack.h"
#include "normc/normc.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

using namespace normc;
namespace fs = std::filesystem;

namespace {

using Dim = Argument::Dim;
using Dims = std::vector<Argument::Dim>;

/// The element type of a signature's argument `name`, "absent" without one.
std::string typeOf(const Signature &signature, const std::string &name) {
  const Argument *argument = findArgument(signature, name);
  return argument ? argument->elementType : "absent";
}

/// Whether the signature has an argument `name` that the program writes.
bool writes(const Signature &signature, const std::string &name) {
  const Argument *argument = findArgument(signature, name);
  return argument && argument->written;
}

/// Whether the signature has an argument `name` that the program only reads.
bool reads(const Signature &signature, const std::string &name) {
  const Argument *argument = findArgument(signature, name);
  return argument && !argument->written;
}

const char kRmsNorm[] = R"(name = "tiny_rmsnorm"
[statistics]
center = false
[epsilon]
value = 1e-6
)";

// Same meaning, other layout and comments.
const char kRmsNormReformatted[] = R"(# a comment
name = "tiny_rmsnorm"   # trailing comment

[epsilon]
value = 0.000001

[statistics]
center = false
scale = true
)";

class RuntimeApi : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/normc-api-test-XXXXXX";
    cacheDir = mkdtemp(pattern);
  }
  void TearDown() override { fs::remove_all(cacheDir); }

  RuntimeOptions cpu(int autotune = 0) const {
    RuntimeOptions options;
    options.device = DeviceKind::Cpu;
    options.cacheDir = cacheDir;
    options.autotune = autotune;
    return options;
  }
  size_t entries(const std::string &ns) const {
    size_t n = 0;
    if (fs::exists(cacheDir + "/" + ns))
      for (auto &e : fs::recursive_directory_iterator(cacheDir + "/" + ns))
        n += e.is_regular_file() && e.path().extension() == ".bin";
    return n;
  }

  /// Runs the f32 RMSNorm on rows x d and returns the worst error against
  /// host arithmetic, as a fraction of the f32 bound (graded as the
  /// reference grades: an element left NaN is +inf).
  static double runAndCheck(const Norm &norm, int64_t rows, int64_t d) {
    std::vector<float> x(rows * d), gamma(d),
        y(rows * d, std::numeric_limits<float>::quiet_NaN());
    for (int64_t i = 0; i < rows * d; ++i)
      x[i] = std::sin(0.37 * i) * 3;
    for (int64_t i = 0; i < d; ++i)
      gamma[i] = 1 + 0.01 * i;
    Arguments a(rows, d);
    a.set("x", x.data()).set("gamma", gamma.data()).set("y", y.data());
    norm.forward(a);
    double worst = 0;
    for (int64_t r = 0; r < rows; ++r) {
      double ss = 0;
      for (int64_t i = 0; i < d; ++i)
        ss += double(x[r * d + i]) * x[r * d + i];
      double rstd = 1 / std::sqrt(ss / d + 1e-6);
      for (int64_t i = 0; i < d; ++i) {
        double ref = x[r * d + i] * rstd * gamma[i];
        worst = std::max(worst, reference::errorFraction(y[r * d + i], ref,
                                                         dsl::DType::F32));
      }
    }
    return worst;
  }

  std::string cacheDir;
};

TEST_F(RuntimeApi, JitRunsOnTheCpuDevice) {
  Runtime runtime(cpu());
  EXPECT_EQ(runtime.device(), DeviceKind::Cpu);
  Norm norm = runtime.loadSpecString(kRmsNorm);
  EXPECT_EQ(norm.name(), "tiny_rmsnorm");
  EXPECT_LE(runAndCheck(norm, 5, 300), 1.0);
  EXPECT_LE(runAndCheck(norm, 1, 7), 1.0); // a second d, a second kernel
}

TEST_F(RuntimeApi, SignatureSaysWhatTheSpecReadsAndWrites) {
  Runtime runtime(cpu());
  Norm rmsNorm = runtime.loadSpecString(kRmsNorm);
  Signature rms = rmsNorm.signature();
  // x and gamma in, y out, and nothing else.
  EXPECT_EQ(rms.size(), 3u);
  EXPECT_TRUE(reads(rms, "x"));
  EXPECT_EQ(typeOf(rms, "x"), "f32");
  EXPECT_TRUE(reads(rms, "gamma"));
  EXPECT_TRUE(writes(rms, "y"));
  for (const char *absent :
       {"beta", "residual", "residual_out", "mean", "rstd"})
    EXPECT_FALSE(findArgument(rms, absent)) << absent;
  // Rows take a row stride; features do not.
  if (const Argument *x = findArgument(rms, "x")) {
    EXPECT_EQ(x->dims, (Dims{Dim::Rows, Dim::D}));
    EXPECT_TRUE(x->strided);
    EXPECT_EQ(shapeText(*x), "[rows, d]");
  }
  if (const Argument *gamma = findArgument(rms, "gamma")) {
    EXPECT_EQ(gamma->dims, Dims{Dim::D});
    EXPECT_FALSE(gamma->strided);
    EXPECT_EQ(shapeText(*gamma), "[d]");
  }
  // Scaled, not centered: a backward with saved statistics reads the rstd
  // and no mean.
  EXPECT_EQ(rmsNorm.backwardPrograms(),
            (std::vector<std::string>{"backward", "backward+saved_stats"}));
  Signature rmsSaved = rmsNorm.signature("backward+saved_stats");
  EXPECT_TRUE(reads(rmsSaved, "rstd"));
  EXPECT_FALSE(findArgument(rmsSaved, "mean"));
  EXPECT_FALSE(findArgument(rmsNorm.signature("backward"), "rstd"));
  EXPECT_NE(rmsNorm.canonical().find("name = \"tiny_rmsnorm\""),
            std::string::npos);
  EXPECT_EQ(rmsNorm.gainOffset(), 0.0);
  EXPECT_THROW(rmsNorm.signature("sideways"), Error);

  Norm fusedNorm = runtime.loadSpecString(R"(name = "fused"
[statistics]
center = true
[affine]
gain_offset = 1.0
bias = true
[dtypes]
input = "bf16"
output = "f16"
[fusion]
residual_add = true
save_stats = true
)");
  Signature fused = fusedNorm.signature();
  EXPECT_EQ(typeOf(fused, "x"), "bf16");
  EXPECT_EQ(typeOf(fused, "residual"), "bf16");
  EXPECT_EQ(typeOf(fused, "y"), "f16");
  EXPECT_EQ(typeOf(fused, "residual_out"), "bf16");
  EXPECT_EQ(typeOf(fused, "gamma"), "f32"); // the params type
  EXPECT_EQ(typeOf(fused, "beta"), "f32");
  EXPECT_TRUE(reads(fused, "residual") && reads(fused, "gamma") &&
              reads(fused, "beta"));
  EXPECT_TRUE(writes(fused, "residual_out") && writes(fused, "mean") &&
              writes(fused, "rstd"));
  if (const Argument *mean = findArgument(fused, "mean")) {
    EXPECT_EQ(mean->elementType, "f32");
    EXPECT_EQ(mean->dims, Dims{Dim::Rows});
  }
  // Centered and scaled: a backward with saved statistics reads both; no
  // backward reads beta.
  EXPECT_EQ(fusedNorm.backwardPrograms(),
            (std::vector<std::string>{"backward", "backward+saved_stats",
                                      "backward+dresidual_out",
                                      "backward+saved_stats+dresidual_out"}));
  Signature fusedSaved = fusedNorm.signature("backward+saved_stats");
  EXPECT_TRUE(reads(fusedSaved, "mean") && reads(fusedSaved, "rstd"));
  EXPECT_FALSE(findArgument(fusedSaved, "beta"));
  EXPECT_TRUE(writes(fusedSaved, "dbeta"));
  EXPECT_EQ(fusedNorm.gainOffset(), 1.0);
}

TEST_F(RuntimeApi, CpuHeadersComeFromTheDirectoryGiven) {
  RuntimeOptions options = cpu();
  options.cpuHeaderDir = cacheDir + "/no-headers-here";
  Norm norm = Runtime(options).loadSpecString(kRmsNorm);
  try {
    runAndCheck(norm, 1, 9);
    FAIL() << "compiled without CpuCuda.h";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find(options.cpuHeaderDir + "/CpuCuda.h"),
              std::string::npos)
        << e.what();
  }
  // A copy elsewhere (as the Python package installs) works.
  options.cpuHeaderDir = cacheDir + "/headers";
  fs::create_directories(options.cpuHeaderDir);
  for (const char *header : {"CpuCuda.h", "CpuAbi.h"})
    fs::copy_file(std::string(NORMC_CPU_HEADER_DIR) + "/" + header,
                  options.cpuHeaderDir + "/" + header);
  EXPECT_LE(runAndCheck(Runtime(options).loadSpecString(kRmsNorm), 1, 9), 1.0);
}

TEST_F(RuntimeApi, DiskCacheIsSharedByEquivalentSpecsAndReusedAcrossRuntimes) {
  {
    Runtime runtime(cpu());
    runtime.loadSpecString(kRmsNorm).prepare(64, 4);
  }
  EXPECT_EQ(entries("source"), 1u); // miss: emitted and stored
  Runtime other(cpu());
  std::string first = other.loadSpecString(kRmsNormReformatted).prepare(64, 4);
  EXPECT_EQ(entries("source"), 1u); // hit: the same entry
  EXPECT_EQ(first, other.loadSpecString(kRmsNorm).prepare(64, 4));
  other.loadSpecString(kRmsNorm).prepare(65, 4);
  EXPECT_EQ(entries("source"), 2u); // another d is another kernel
}

TEST_F(RuntimeApi, CorruptCacheEntriesAreRebuilt) {
  Runtime(cpu()).loadSpecString(kRmsNorm).prepare(64, 4);
  for (auto &e : fs::recursive_directory_iterator(cacheDir + "/source"))
    if (e.is_regular_file()) {
      fs::resize_file(e.path(), fs::file_size(e.path()) / 2);
    }
  Norm norm = Runtime(cpu()).loadSpecString(kRmsNorm);
  EXPECT_LE(runAndCheck(norm, 3, 64), 1.0);
  EXPECT_EQ(entries("source"), 1u); // written again, whole
}

TEST_F(RuntimeApi, EmittedSourcesOfAnotherCompilerBuildAreNotReused) {
  // An entry stored under what the key was before it covered the
  // compiler's sources (spec, program, d, schedule, version): a compiler
  // rebuilt from other sources under the same version must not load it.
  std::string schedule = Runtime(cpu()).loadSpecString(kRmsNorm).prepare(64, 4);
  std::string stem;
  for (auto &e : fs::recursive_directory_iterator(cacheDir + "/source"))
    if (e.is_regular_file() && e.path().extension() == ".bin")
      stem = e.path().stem().string();
  ASSERT_EQ(stem.size(), 64u);
  std::optional<std::string> honest =
      cache::DiskCache(cacheDir, "source").get(stem);
  ASSERT_TRUE(honest);
  // The same launch facts, and a source no compiler accepts.
  size_t facts = honest->find('\n', honest->find('\n') + 1);
  ASSERT_NE(facts, std::string::npos);
  std::string stale = honest->substr(0, facts + 1) + "#error stale source\n";
  fs::remove_all(cacheDir);
  fs::create_directories(cacheDir);
  fs::permissions(cacheDir, fs::perms::owner_all);
  Runtime runtime(cpu());
  Norm norm = runtime.loadSpecString(kRmsNorm);
  std::string oldKey = cache::KeyBuilder()
                           .add("spec", norm.canonical())
                           .add("program", "forward")
                           .add("d", "64")
                           .add("schedule", schedule)
                           .add("normc", kVersion)
                           .hex();
  ASSERT_TRUE(cache::DiskCache(cacheDir, "source").put(oldKey, stale));
  EXPECT_LE(runAndCheck(norm, 3, 64), 1.0);
  EXPECT_EQ(entries("source"), 2u); // its own entry beside the stale one
}

TEST_F(RuntimeApi, TuningIsStoredAndReusedByLaterRuntimes) {
  Norm tuned = Runtime(cpu()).loadSpecString(kRmsNorm);
  std::vector<std::string> seen;
  TuneReport report = tuned.tune(
      64, 16, [&](const TuneResult &r) { seen.push_back(r.schedule); });
  ASSERT_GT(report.candidates.size(), 1u);
  EXPECT_EQ(seen.size(), report.candidates.size());
  EXPECT_FALSE(report.winner.empty());
  for (const TuneResult &r : report.candidates) {
    if (r.schedule != report.winner)
      continue;
    for (const TuneResult &other : report.candidates) {
      if (other.milliseconds >= 0) {
        EXPECT_LE(r.milliseconds, other.milliseconds);
      }
    }
  }
  EXPECT_EQ(entries("tuning"), 1u);
  // A later runtime without tuning reuses the winner for the same bucket
  // (rows 9..16), and falls back to the heuristic elsewhere.
  Norm later = Runtime(cpu(/*autotune=*/0)).loadSpecString(kRmsNormReformatted);
  EXPECT_EQ(later.prepare(64, 9), report.winner);
  EXPECT_LE(runAndCheck(later, 9, 64), 1.0);
}

// An entry in the tuning database wins over the heuristic default.
TEST_F(RuntimeApi, ATuningDatabaseEntryIsUsed) {
  Schedule stored = Schedule::rowGroup(
      4, 32, 4, RowStorage::Global); // the default at d = 64 differs
  dsl::SpecParseResult parsed = dsl::parseSpecString(kRmsNorm, "t.toml");
  ASSERT_TRUE(parsed.spec);
  ASSERT_FALSE(defaultSchedule({64, 32}) == stored);
  api::TuningDatabase(cacheDir).store("cpu", parsed.spec->canonical(),
                                      Program::forward(), 64, 9, stored);
  Norm norm = Runtime(cpu(/*autotune=*/0)).loadSpecString(kRmsNormReformatted);
  EXPECT_EQ(norm.prepare(64, 16), stored.str()); // the same rows bucket
  EXPECT_EQ(norm.prepare(64, 17), stored.str()); // a neighbouring bucket
  EXPECT_EQ(norm.prepare(64, 65), defaultSchedule({64, 32}).str());
  EXPECT_LE(runAndCheck(norm, 9, 64), 1.0);
}

// A tuned first call compiles the candidates the cost model keeps (the
// default first) before it measures any, on several threads at once where
// the machine has them.
TEST_F(RuntimeApi, TunerCompilesEveryCandidateFirstAndInParallel) {
  struct Recorder : api::Backend {
    std::unique_ptr<api::Backend> cpu;
    std::mutex lock;
    std::vector<std::string> calls;
    std::atomic<int> running{0}, widest{0};
    DeviceKind kind() const override { return DeviceKind::Cpu; }
    std::string deviceKey() const override { return "cpu"; }
    std::string deviceName() const override { return "cpu"; }
    void compile(const api::Candidate &c, const std::string &spec,
                 int64_t d) override {
      int now = ++running;
      for (int seen = widest;
           now > seen && !widest.compare_exchange_weak(seen, now);)
        ;
      cpu->compile(c, spec, d);
      --running;
      std::lock_guard<std::mutex> guard(lock);
      calls.push_back("compile");
    }
    std::shared_ptr<api::LoadedKernel>
    load(const api::Candidate &c, const std::string &spec, int64_t d) override {
      calls.push_back("load");
      return cpu->load(c, spec, d);
    }
    void launch(const api::LoadedKernel &k, const KernelArgs &a,
                void *s) override {
      cpu->launch(k, a, s);
    }
    double measure(const api::LoadedKernel &k, int64_t rows,
                   int64_t d) override {
      return cpu->measure(k, rows, d);
    }
  } recorder;
  recorder.cpu = api::makeCpuBackend(cacheDir, "");
  dsl::SpecParseResult parsed = dsl::parseSpecString(kRmsNorm, "t.toml");
  ASSERT_TRUE(parsed.spec);
  auto source = api::makeJitSource(*parsed.spec,
                                   std::make_shared<cache::TwoLevelCache>(
                                       cache::DiskCache(cacheDir, "source")));
  std::shared_ptr<api::LoadedKernel> winner;
  TuneReport report =
      api::tuneCandidates(recorder, *source, parsed.spec->canonical(),
                          Program::forward(), 64, 8, winner);
  size_t n = report.candidates.size();
  ASSERT_GT(n, 2u);
  std::vector<Schedule> all = source->schedules(Program::forward(), 64, 0);
  ASSERT_GT(all.size(), kTunedCandidates);
  std::vector<Schedule> kept = pruneCandidates(
      all, rowTraffic(source->kernel(Program::forward(), 64, all[0]).kernels),
      64, api::rowsBucket(8), 0);
  ASSERT_EQ(n, kTunedCandidates);
  for (size_t i = 0; i < n; ++i)
    EXPECT_EQ(report.candidates[i].schedule, kept[i].str()) << i;
  ASSERT_EQ(recorder.calls.size(), 2 * n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(recorder.calls[i], "compile") << i;
    EXPECT_EQ(recorder.calls[n + i], "load") << i;
  }
  if (std::thread::hardware_concurrency() > 1) {
    EXPECT_GT(recorder.widest.load(), 1);
  }
  EXPECT_TRUE(winner);
}

TEST_F(RuntimeApi, AutotuneOnFirstUseWhenEnabled) {
  Norm norm = Runtime(cpu(/*autotune=*/1)).loadSpecString(kRmsNorm);
  EXPECT_LE(runAndCheck(norm, 2, 32), 1.0);
  EXPECT_EQ(entries("tuning"), 1u);
}

TEST_F(RuntimeApi, SeveralThreadsShareOneNorm) {
  Norm norm = Runtime(cpu()).loadSpecString(kRmsNorm);
  std::vector<std::thread> threads;
  std::vector<double> worst(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back(
        [&, t] { worst[t] = runAndCheck(norm, 3, 100 + 31 * (t % 2)); });
  for (std::thread &t : threads)
    t.join();
  for (double w : worst)
    EXPECT_LE(w, 1.0);
}

TEST_F(RuntimeApi, TwoProcessesShareOneCacheDirectory) {
  pid_t children[2];
  for (pid_t &child : children) {
    child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      try {
        Norm norm = Runtime(cpu()).loadSpecString(kRmsNorm);
        bool ok = true;
        for (int64_t d : {48, 49, 50})
          ok = ok && runAndCheck(norm, 2, d) <= 1.0;
        _exit(ok ? 0 : 1);
      } catch (...) {
        _exit(2);
      }
    }
  }
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  EXPECT_EQ(entries("source"), 3u);
  for (auto &e : fs::recursive_directory_iterator(cacheDir))
    EXPECT_NE(e.path().extension(), ".tmp") << e.path();
}

TEST_F(RuntimeApi, BackwardRunsOnTheCpuDevice) {
  Runtime runtime(cpu());
  Norm norm = runtime.loadSpecString(kRmsNorm);
  const int64_t rows = 5, d = 64;
  std::vector<float> x(rows * d), dy(rows * d), gamma(d), dx(rows * d, NAN),
      dgamma(d, NAN);
  for (int64_t i = 0; i < rows * d; ++i) {
    x[i] = std::sin(0.37 * i) * 3;
    dy[i] = std::cos(0.11 * i);
  }
  for (int64_t i = 0; i < d; ++i)
    gamma[i] = 1 + 0.01 * i;
  Arguments b(rows, d);
  b.set("x", x.data()).set("gamma", gamma.data()).set("dy", dy.data());
  b.set("dx", dx.data()).set("dgamma", dgamma.data());
  norm.backward(b);
  // RMSNorm: dx = r g - r^3 / d * h * sum(g h), g = dy * gamma; dgamma is
  // the sum over rows of dy * h * r.
  std::vector<double> dgammaRef(d, 0.0);
  for (int64_t row = 0; row < rows; ++row) {
    const float *h = &x[row * d], *dyr = &dy[row * d];
    double ss = 0, gh = 0;
    for (int64_t i = 0; i < d; ++i) {
      ss += double(h[i]) * h[i];
      gh += double(dyr[i]) * gamma[i] * h[i];
    }
    double r = 1 / std::sqrt(ss / d + 1e-6);
    for (int64_t i = 0; i < d; ++i) {
      double ref = r * dyr[i] * gamma[i] - r * r * r / d * h[i] * gh;
      EXPECT_NEAR(dx[row * d + i], ref, 1e-5 * (std::fabs(ref) + 1))
          << "row " << row << " feature " << i;
      dgammaRef[i] += double(dyr[i]) * h[i] * r;
    }
  }
  for (int64_t i = 0; i < d; ++i)
    EXPECT_NEAR(dgamma[i], dgammaRef[i], 1e-5 * (std::fabs(dgammaRef[i]) + 1));
  // The same bits on a second run.
  std::vector<float> first = dgamma;
  norm.backward(b);
  EXPECT_EQ(0, std::memcmp(first.data(), dgamma.data(), d * sizeof(float)));
  // Another candidate: other partial sums, the same values within f32.
  std::vector<std::string> schedules = norm.backwardSchedules(d);
  ASSERT_GT(schedules.size(), 1u);
  std::fill(dgamma.begin(), dgamma.end(), NAN);
  norm.backwardWith(schedules.back(), b);
  for (int64_t i = 0; i < d; ++i)
    EXPECT_NEAR(dgamma[i], dgammaRef[i], 1e-5 * (std::fabs(dgammaRef[i]) + 1));
}

// fp8 outputs (docs/fp8.md) through the API: y of the fp8 type (decoded by the
// toolkit's conversion), the scales or the amax, and what it refuses.
TEST_F(RuntimeApi, Fp8OutputsWriteTheirScales) {
  Runtime runtime(cpu());
  const int64_t rows = 3, d = 100;
  std::vector<float> x(rows * d), gamma(d, 1.0f);
  for (int64_t i = 0; i < rows * d; ++i)
    x[i] = std::sin(0.37 * i) * 3;
  std::vector<unsigned char> y(rows * d);
  std::vector<float> scale(rows), amax(rows);
  Arguments a(rows, d);
  a.set("x", x.data()).set("gamma", gamma.data()).set("y", y.data());

  Norm row = runtime.loadSpecString(std::string(kRmsNorm) +
                                    "[dtypes]\noutput = \"f8e4m3\"\n");
  Signature rowSignature = row.signature();
  EXPECT_EQ(typeOf(rowSignature, "y"), "f8e4m3");
  // A scale per row, written.
  EXPECT_TRUE(writes(rowSignature, "scale"));
  EXPECT_EQ(typeOf(rowSignature, "scale"), "f32");
  if (const Argument *s = findArgument(rowSignature, "scale")) {
    EXPECT_EQ(s->dims, Dims{Dim::Rows});
  }
  EXPECT_FALSE(findArgument(rowSignature, "amax"));
  EXPECT_THROW(row.forward(a), Error); // no scale buffer
  a.set("scale", scale.data());
  row.forward(a);
  std::vector<double> q = host::decode("f8e4m3", y.data(), y.size());
  for (int64_t r = 0; r < rows; ++r) {
    double largest = 0;
    for (int64_t i = 0; i < d; ++i)
      largest = std::max(largest, std::fabs(q[r * d + i]));
    EXPECT_EQ(largest, 448.0) << r; // the amax element is scaled to the top
    EXPECT_GT(scale[r], 0.0f);
  }
  // No gradient through a rounding to fp8: no backward, whatever it is given.
  EXPECT_TRUE(row.backwardPrograms().empty());
  EXPECT_THROW(row.signature("backward"), Error);
  std::vector<float> grads(rows * d);
  Arguments b(rows, d);
  b.set("x", x.data()).set("gamma", gamma.data()).set("dy", grads.data());
  b.set("dx", grads.data()).set("dgamma", grads.data());
  EXPECT_THROW(row.backward(b), Error);

  Norm fixed = runtime.loadSpecString(
      std::string(kRmsNorm) +
      "[dtypes]\noutput = \"f8e5m2\"\n[quantize]\nscale = \"static\"\n");
  // "static": the scale [1] is an input, the per-row amax an output.
  Signature fixedSignature = fixed.signature();
  EXPECT_EQ(typeOf(fixedSignature, "y"), "f8e5m2");
  EXPECT_TRUE(reads(fixedSignature, "scale"));
  if (const Argument *s = findArgument(fixedSignature, "scale")) {
    EXPECT_EQ(s->dims, Dims{Dim::One});
    EXPECT_EQ(shapeText(*s), "[1]");
  }
  EXPECT_TRUE(writes(fixedSignature, "amax"));
  if (const Argument *m = findArgument(fixedSignature, "amax")) {
    EXPECT_EQ(m->dims, Dims{Dim::Rows});
  }
  const float one = 1.0f / 1024;
  a.set("scale", &one);
  EXPECT_THROW(fixed.forward(a), Error); // no amax buffer
  a.set("amax", amax.data());
  fixed.forward(a);
  q = host::decode("f8e5m2", y.data(), y.size());
  for (int64_t r = 0; r < rows; ++r) {
    double largest = 0;
    for (int64_t i = 0; i < d; ++i)
      largest = std::max(largest, std::fabs(q[r * d + i] * one));
    // The amax is y's; the values are y / s, rounded to 3 significant bits.
    EXPECT_NEAR(largest, amax[r], amax[r] * 0.13) << r;
  }
}

// Block scales through the API: [rows, ceil(d / block)] scales, each
// block's largest value at the top of the format, and the signature.
TEST_F(RuntimeApi, Fp8BlockScalesArePerRowAndBlock) {
  Runtime runtime(cpu());
  const int64_t rows = 3, d = 100, block = 32, groups = 4;
  std::vector<float> x(rows * d), gamma(d, 1.0f);
  for (int64_t i = 0; i < rows * d; ++i)
    x[i] = std::sin(0.37 * i) * (1 + i % d / 10);
  std::vector<unsigned char> y(rows * d);
  std::vector<float> scale(rows * groups, NAN);
  Norm norm = runtime.loadSpecString(
      std::string(kRmsNorm) + "[dtypes]\noutput = \"f8e4m3\"\n[quantize]\n"
                              "scale = \"block\"\nblock = 32\n");
  // "block": a scale per row and block of `block` features, written.
  Signature signature = norm.signature();
  EXPECT_TRUE(writes(signature, "scale"));
  if (const Argument *s = findArgument(signature, "scale")) {
    EXPECT_EQ(s->dims, (Dims{Dim::Rows, Dim::Groups}));
    EXPECT_EQ(s->groupSize, block);
    EXPECT_EQ(s->shape(rows, d), (std::vector<int64_t>{rows, groups}));
    EXPECT_EQ(shapeText(*s), "[rows, ceil(d / 32)]");
  }
  Arguments a(rows, d);
  a.set("x", x.data()).set("gamma", gamma.data()).set("y", y.data());
  a.set("scale", scale.data());
  // The default and the last candidate (Fp8Candidates runs them all).
  std::vector<std::string> schedules = norm.schedules(d);
  for (const std::string &schedule : {schedules.front(), schedules.back()}) {
    std::fill(scale.begin(), scale.end(), NAN);
    norm.forwardWith(schedule, a);
    std::vector<double> q = host::decode("f8e4m3", y.data(), y.size());
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t g = 0; g < groups; ++g) {
        double largest = 0;
        for (int64_t i = g * block; i < std::min(d, (g + 1) * block); ++i)
          largest = std::max(largest, std::fabs(q[r * d + i]));
        EXPECT_EQ(largest, 448.0)
            << schedule << ": row " << r << " block " << g;
        EXPECT_GT(scale[r * groups + g], 0.0f) << schedule;
      }
    // Later blocks hold larger x: larger scales.
    EXPECT_GT(scale[3], scale[0]) << schedule;
  }
}

TEST_F(RuntimeApi, NoRowsNeedNoRowBuffers) {
  // Empty tensors may have no storage: with rows = 0, x, y and dx may be
  // null. The backward still writes dgamma, the sum over no rows.
  Runtime runtime(cpu());
  Norm norm = runtime.loadSpecString(kRmsNorm);
  std::vector<float> gamma(16, 1), dgamma(16, NAN);
  Arguments a(0, 16);
  a.set("x", nullptr).set("gamma", gamma.data()).set("y", nullptr);
  EXPECT_NO_THROW(norm.forward(a));
  Arguments b(0, 16);
  b.set("x", nullptr).set("gamma", gamma.data()).set("dy", nullptr);
  b.set("dx", nullptr).set("dgamma", dgamma.data());
  ASSERT_NO_THROW(norm.backward(b));
  for (float v : dgamma)
    EXPECT_EQ(v, 0.0f);
  // Features are still needed, and rows still need their buffers.
  b.set("dgamma", nullptr);
  EXPECT_THROW(norm.backward(b), Error);
  a.rows = 1;
  EXPECT_THROW(norm.forward(a), Error);
  // Every argument is still named, null or not.
  Arguments unnamed(0, 16);
  unnamed.set("gamma", gamma.data()).set("y", nullptr);
  EXPECT_THROW(norm.forward(unnamed), Error);
}

TEST_F(RuntimeApi, ErrorsAreMessagesNotCrashes) {
  Runtime runtime(cpu());
  auto messageOf = [](auto &&call) {
    try {
      call();
    } catch (const Error &error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(messageOf([&] {
              runtime.loadSpecString("name = 3\n", "bad.toml");
            }).find("bad.toml:1:8: error:"),
            std::string::npos);
  Norm norm = runtime.loadSpecString(kRmsNorm);
  auto says = [&](auto &&call, const std::string &expected) {
    std::string message = messageOf(call);
    EXPECT_NE(message.find(expected), std::string::npos)
        << "expected \"" << expected << "\" in \"" << message << "\"";
  };
  // The arguments are checked against the signature before any kernel
  // runs: every one of its names, and no other.
  std::vector<float> x(16), y(16), gamma(16);
  Arguments a(1, 16);
  a.set("x", x.data()).set("y", y.data());
  says([&] { norm.forward(a); },
       "the forward of 'tiny_rmsnorm' needs 'gamma' [d] f32");
  a.set("gamma", gamma.data()).set("z", y.data());
  says([&] { norm.forward(a); },
       "the forward of 'tiny_rmsnorm' takes no argument 'z'");
  a.tensors.erase("z");
  // A name given with a null pointer, or a row stride for an argument
  // without rows.
  a.set("gamma", nullptr);
  says([&] { norm.forward(a); }, "needs buffer 'gamma'");
  a.set("gamma", gamma.data(), 16);
  says([&] { norm.forward(a); }, "'gamma' [d] takes no row stride");
  a.set("gamma", gamma.data());
  EXPECT_EQ(messageOf([&] { norm.forward(a); }), "no error");
  a.d = 0;
  says([&] { norm.forward(a); }, "invalid shape");
  // The backward checks its arguments alike, against each of its programs.
  std::vector<float> dx(16), dgamma(16), stats(1);
  Arguments b(1, 16);
  b.set("x", x.data()).set("gamma", gamma.data());
  b.set("dx", dx.data()).set("dgamma", dgamma.data());
  const std::string noneFits = "(no backward takes exactly these arguments)";
  says([&] { norm.backward(b); },
       "the backward of 'tiny_rmsnorm' needs 'dy' [rows, d] f32 " + noneFits);
  b.set("dy", nullptr);
  says([&] { norm.backward(b); }, "needs buffer 'dy'");
  b.set("dy", y.data());
  // Not centered: no backward reads a mean.
  b.set("mean", stats.data());
  says([&] { norm.backward(b); },
       "the backward of 'tiny_rmsnorm' takes no argument 'mean' " + noneFits);
  b.tensors.erase("mean");
  // No residual_add: no backward reads dresidual_out.
  b.set("dresidual_out", y.data());
  says([&] { norm.backward(b); },
       "the backward of 'tiny_rmsnorm' takes no argument 'dresidual_out' " +
           noneFits);
  b.tensors.erase("dresidual_out");
  says([&] { norm.backwardWith("strategy=nonsense", b); },
       "is not a schedule candidate of the backward");
  // Centered and scaled: saved statistics come together, the mean and the
  // rstd.
  Norm layerNorm = runtime.loadSpecString(R"(name = "tiny_layernorm"
[statistics]
center = true
[epsilon]
value = 1e-5
)");
  Arguments c(1, 16);
  for (const Argument &argument : layerNorm.signature("backward"))
    c.set(argument.name, argument.perRow() ? x.data() : gamma.data());
  c.set("mean", stats.data());
  says([&] { layerNorm.backward(c); },
       "the backward+saved_stats of 'tiny_layernorm' needs 'rstd' [rows] "
       "f32 " +
           noneFits);
  c.tensors.erase("mean");
  c.set("rstd", stats.data());
  says([&] { layerNorm.backward(c); },
       "the backward+saved_stats of 'tiny_layernorm' needs 'mean' [rows] "
       "f32 " +
           noneFits);
  EXPECT_NE(messageOf([&] {
              runtime.loadPack(cacheDir + "/nope");
            }).find("cannot read"),
            std::string::npos);
  RuntimeOptions gpu = cpu();
  gpu.device = DeviceKind::Cuda;
  // Asking for the GPU where none can be used says so; where one can, it
  // works.
  if (cuda::available())
    EXPECT_EQ(messageOf([&] { Runtime{gpu}; }), "no error");
  else
    EXPECT_NE(messageOf([&] { Runtime{gpu}; }).find("no CUDA GPU can be used"),
              std::string::npos);
}

} // namespace

// A pack for any d: its heuristic kernel re-reads rows from global memory;
// where a row fits the device's shared memory the runtime picks the same
// schedule keeping it there instead.
TEST_F(RuntimeApi, KernelsForAnyDFallBackToGlobalWhereSharedDoesNotFit) {
  dsl::SpecParseResult parsed = dsl::parseSpecString(kRmsNorm, "t.toml");
  ASSERT_TRUE(parsed.spec);
  std::string errors;
  std::optional<Pack> pack = buildPack(*parsed.spec, std::nullopt, errors);
  ASSERT_TRUE(pack) << errors;
  writePack(cacheDir + "/pack", *pack);
  Norm norm = Runtime(cpu()).loadPack(cacheDir + "/pack");
  Schedule global = defaultSchedule({std::nullopt, 32});
  ASSERT_EQ(global.rowStorage, RowStorage::Global);
  Schedule shared = global;
  shared.rowStorage = RowStorage::Shared;
  EXPECT_EQ(norm.prepare(1000, 4), shared.str());
  EXPECT_LE(runAndCheck(norm, 4, 1000), 1.0);
  // 131072 f32 features: 512 KiB of shared memory.
  EXPECT_EQ(norm.prepare(131072, 2), global.str());
  EXPECT_LE(runAndCheck(norm, 2, 131072), 1.0);
}
