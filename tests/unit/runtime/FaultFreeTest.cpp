//===- FaultFreeTest.cpp - Kernels that never fault -----------------------===//
//
// On the CPU device (which fails a launch where a GPU would fault on a
// misaligned vector access): misaligned pointers and odd strides take the
// element-wise path in each kind of candidate the tuner may pick (each way
// of keeping the row, each vector width) and give the same
// bits as aligned rows; rows more than 2^31 elements apart are addressed in
// 64 bits; and shapes, strides and pointers no kernel can take, and
// arguments other than the signature's, are errors before any launch.
//
//===----------------------------------------------------------------------===//
#include "normc/Abi/Schedule.h"
#include "normc/normc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include <sys/mman.h>

using namespace normc;

namespace {

// Every buffer kind: rows in and out, features, per-row statistics.
const char kLayerNorm[] = R"(name = "fault_free_layernorm"
[statistics]
center = true
[affine]
gain = true
bias = true
[dtypes]
input = "bf16"
output = "bf16"
params = "bf16"
[fusion]
residual_add = true
save_stats = true
)";

constexpr uint16_t kPoison = 0xFFFF; // a bf16 NaN
constexpr int kOutput = -1;

/// rows x d bf16 values (from `seed`; outputs, kOutput, start as NaN) in a
/// buffer `offset` elements past a 16-byte aligned address, rows `stride`
/// elements apart.
struct Rows {
  Rows(int64_t rows, int64_t d, int64_t stride, int64_t offset, int seed)
      : storage(offset + rows * stride + 8, kPoison), d(d), stride(stride),
        offset(offset) {
    for (int64_t r = 0; r < rows && seed != kOutput; ++r)
      for (int64_t i = 0; i < d; ++i) {
        float v = std::sin(0.37f * (r * d + i) + seed) * 2 + 0.1f * seed;
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        at(r, i) = static_cast<uint16_t>(bits >> 16);
      }
  }
  uint16_t &at(int64_t r, int64_t i) { return data()[r * stride + i]; }
  uint16_t *data() { return storage.data() + offset; }
  std::vector<uint16_t> row(int64_t r) {
    return {data() + r * stride, data() + r * stride + d};
  }
  std::vector<uint16_t> storage;
  int64_t d, stride, offset;
};

class FaultFree : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/normc-fault-test-XXXXXX";
    cacheDir = mkdtemp(pattern);
    RuntimeOptions options;
    options.device = DeviceKind::Cpu;
    options.cacheDir = cacheDir;
    runtime = std::make_unique<Runtime>(options);
    norm = std::make_unique<Norm>(runtime->loadSpecString(kLayerNorm));
  }
  void TearDown() override { std::filesystem::remove_all(cacheDir); }

  std::string cacheDir;
  std::unique_ptr<Runtime> runtime;
  std::unique_ptr<Norm> norm;
};

/// The outputs of one forward over `rows` rows laid out with `stride` and
/// `offset` (features offset alike), row by row.
struct ForwardRun {
  ForwardRun(int64_t rows, int64_t d, int64_t stride, int64_t offset)
      : x(rows, d, stride, offset, 1), residual(rows, d, stride, offset, 2),
        gamma(1, d, d, offset, 3), beta(1, d, d, offset, 4),
        y(rows, d, stride, offset, kOutput),
        residualOut(rows, d, stride, offset, kOutput), mean(rows, NAN),
        rstd(rows, NAN), args(rows, d) {
    args.set("x", x.data(), stride).set("residual", residual.data(), stride);
    args.set("gamma", gamma.data()).set("beta", beta.data());
    args.set("y", y.data(), stride)
        .set("residual_out", residualOut.data(), stride);
    args.set("mean", mean.data()).set("rstd", rstd.data());
  }
  Rows x, residual, gamma, beta, y, residualOut;
  std::vector<float> mean, rstd;
  Arguments args;
};

/// The first candidate of each way of keeping the row and of each vector
/// width: where the paths for aligned and misaligned data differ (the
/// numerics suites run every candidate).
std::vector<std::string> eachAccessPath(const std::vector<std::string> &all) {
  std::vector<std::string> picked, seen;
  for (const std::string &schedule : all) {
    std::string path;
    for (const char *key : {"row_storage=", "vector_width="}) {
      size_t at = schedule.find(key);
      path += at == std::string::npos
                  ? ""
                  : schedule.substr(at, schedule.find(',', at) - at) + ";";
    }
    if (std::find(seen.begin(), seen.end(), path) == seen.end()) {
      seen.push_back(path);
      picked.push_back(schedule);
    }
  }
  return picked;
}

TEST_F(FaultFree, MisalignedRowsTakeTheNarrowerPath) {
  const int64_t rows = 5, d = 72; // nine 16-byte vectors a row
  std::vector<std::string> schedules = eachAccessPath(norm->schedules(d));
  ASSERT_GE(schedules.size(), 4u);
  for (const std::string &schedule : schedules) {
    SCOPED_TRACE(schedule);
    ForwardRun aligned(rows, d, d, 0);
    norm->forwardWith(schedule, aligned.args);
    // One element past an aligned address, and an odd stride: every row
    // and the features are misaligned in their own way.
    ForwardRun shifted(rows, d, d + 1, 1);
    ASSERT_NO_THROW(norm->forwardWith(schedule, shifted.args));
    for (int64_t r = 0; r < rows; ++r) {
      EXPECT_EQ(shifted.y.row(r), aligned.y.row(r)) << "row " << r;
      EXPECT_EQ(shifted.residualOut.row(r), aligned.residualOut.row(r));
    }
    EXPECT_EQ(shifted.mean, aligned.mean);
    EXPECT_EQ(shifted.rstd, aligned.rstd);
  }
}

/// The outputs of one backward, laid out like ForwardRun.
struct BackwardRun {
  BackwardRun(int64_t rows, int64_t d, int64_t stride, int64_t offset)
      : forward(rows, d, stride, offset), dy(rows, d, stride, offset, 5),
        dx(rows, d, stride, offset, kOutput),
        dresidual(rows, d, stride, offset, kOutput),
        dgamma(1, d, d, offset, kOutput), dbeta(1, d, d, offset, kOutput),
        args(rows, d) {
    // The backward reads no beta.
    args.set("x", forward.x.data(), stride)
        .set("residual", forward.residual.data(), stride);
    args.set("gamma", forward.gamma.data()).set("dy", dy.data(), stride);
    args.set("dx", dx.data(), stride)
        .set("dresidual", dresidual.data(), stride);
    args.set("dgamma", dgamma.data()).set("dbeta", dbeta.data());
  }
  ForwardRun forward;
  Rows dy, dx, dresidual, dgamma, dbeta;
  Arguments args;
};

TEST_F(FaultFree, MisalignedRowsTakeTheNarrowerPathInTheBackward) {
  const int64_t rows = 5, d = 72;
  for (bool saved : {false, true}) {
    std::vector<std::string> schedules =
        eachAccessPath(norm->backwardSchedules(d, saved));
    ASSERT_GE(schedules.size(), 4u);
    for (const std::string &schedule : schedules) {
      SCOPED_TRACE(schedule + (saved ? " (saved statistics)" : ""));
      BackwardRun aligned(rows, d, d, 0), shifted(rows, d, d + 1, 1);
      for (BackwardRun *run : {&aligned, &shifted})
        if (saved) {
          norm->forward(run->forward.args);
          // The saved statistics select the kernels that read them.
          run->args.set("mean", run->forward.mean.data())
              .set("rstd", run->forward.rstd.data());
        }
      norm->backwardWith(schedule, aligned.args);
      ASSERT_NO_THROW(norm->backwardWith(schedule, shifted.args));
      for (int64_t r = 0; r < rows; ++r) {
        EXPECT_EQ(shifted.dx.row(r), aligned.dx.row(r)) << "row " << r;
        EXPECT_EQ(shifted.dresidual.row(r), aligned.dresidual.row(r));
      }
      EXPECT_EQ(shifted.dgamma.row(0), aligned.dgamma.row(0));
      EXPECT_EQ(shifted.dbeta.row(0), aligned.dbeta.row(0));
    }
  }
}

/// Bytes reserved, not committed: only the pages touched take memory.
struct Reserved {
  explicit Reserved(size_t bytes) : bytes(bytes) {
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    base = p == MAP_FAILED ? nullptr : static_cast<uint16_t *>(p);
  }
  ~Reserved() {
    if (base)
      munmap(base, bytes);
  }
  size_t bytes;
  uint16_t *base;
};

TEST_F(FaultFree, RowsMoreThan2To31ElementsApart) {
  // Row 1 of x (and of dx) starts 2^31 + 8 elements (4 GiB) after row 0:
  // 32-bit row offsets would wrap to element 8.
  const int64_t d = 64, stride = (int64_t(1) << 31) + 8, rows = 2;
  Reserved xBuffer((stride + d) * 2), dxBuffer((stride + d) * 2);
  if (!xBuffer.base || !dxBuffer.base)
    GTEST_SKIP() << "cannot reserve 8 GiB of address space";
  ForwardRun compact(rows, d, d, 0);
  // The same rows as `compact`, far apart.
  for (int64_t r = 0; r < rows; ++r)
    std::memcpy(xBuffer.base + r * stride, compact.x.data() + r * d, d * 2);
  ForwardRun far(rows, d, d, 0);
  far.args.set("x", xBuffer.base, stride);
  norm->forward(compact.args);
  norm->forward(far.args);
  EXPECT_EQ(far.y.storage, compact.y.storage);
  EXPECT_EQ(far.rstd, compact.rstd);

  BackwardRun small(rows, d, d, 0), wide(rows, d, d, 0);
  std::memcpy(small.forward.x.data(), compact.x.data(), rows * d * 2);
  wide.args.set("x", xBuffer.base, stride).set("dx", dxBuffer.base, stride);
  norm->backward(small.args);
  norm->backward(wide.args);
  for (int64_t r = 0; r < rows; ++r)
    EXPECT_EQ(0, std::memcmp(dxBuffer.base + r * stride,
                             small.dx.data() + r * d, d * 2))
        << "row " << r;
  EXPECT_EQ(wide.dgamma.storage, small.dgamma.storage);
}

TEST_F(FaultFree, ShapesNoKernelTakesFailBeforeAnyLaunch) {
  auto messageOf = [&](const Arguments &a) {
    try {
      norm->forward(a);
    } catch (const Error &error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  const int64_t rows = 3, d = 64;
  ForwardRun run(rows, d, d, 0);
  struct Case {
    const char *what;
    void (*change)(Arguments &);
    const char *message;
  };
  const Case cases[] = {
      {"d = 0", [](Arguments &a) { a.d = 0; },
       "invalid shape [3, 0]: d must be in [1, 16777216]"},
      {"d beyond the widest row", [](Arguments &a) { a.d = kMaxD + 1; },
       "invalid shape [3, 16777217]: d must be in [1, 16777216]"},
      {"negative rows", [](Arguments &a) { a.rows = -1; },
       "rows must be at least 0"},
      {"a stride smaller than d",
       [](Arguments &a) { a.tensors.at("x").rowStride = 63; },
       "row stride of 'x' (63) is smaller than d"},
      {"a negative stride",
       [](Arguments &a) { a.tensors.at("y").rowStride = -64; },
       "row stride of 'y' (-64) is smaller than d"},
      {"a stride for features",
       [](Arguments &a) { a.tensors.at("gamma").rowStride = 64; },
       "'gamma' [d] takes no row stride"},
      {"null x", [](Arguments &a) { a.tensors.at("x").data = nullptr; },
       "needs buffer 'x'"},
      {"null gamma", [](Arguments &a) { a.tensors.at("gamma").data = nullptr; },
       "needs buffer 'gamma'"},
      {"null y", [](Arguments &a) { a.tensors.at("y").data = nullptr; },
       "needs buffer 'y'"},
      {"no gamma", [](Arguments &a) { a.tensors.erase("gamma"); },
       "the forward of 'fault_free_layernorm' needs 'gamma' [d] bf16"},
      {"no rstd", [](Arguments &a) { a.tensors.erase("rstd"); },
       "the forward of 'fault_free_layernorm' needs 'rstd' [rows] f32"},
      {"an unknown argument",
       [](Arguments &a) { a.set("z", a.tensors.at("x").data); },
       "the forward of 'fault_free_layernorm' takes no argument 'z'"},
      {"a backward's argument",
       [](Arguments &a) { a.set("dy", a.tensors.at("x").data); },
       "the forward of 'fault_free_layernorm' takes no argument 'dy'"},
  };
  for (const Case &c : cases) {
    Arguments a = run.args;
    c.change(a);
    EXPECT_NE(messageOf(a).find(c.message), std::string::npos)
        << c.what << ": " << messageOf(a);
  }
  // Nothing ran: the outputs still hold their poison.
  for (int64_t r = 0; r < rows; ++r)
    EXPECT_EQ(run.y.row(r), std::vector<uint16_t>(d, kPoison));
  EXPECT_TRUE(std::isnan(run.rstd[0]));
}

} // namespace
