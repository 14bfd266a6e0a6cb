//===- EdgeCaseTest.cpp - NaN rows, f16 overflow, strides, misalignment ---===//
#include "NumericsUtil.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace normc;
using namespace normc::test;

namespace {

RunOptions defaults(bool specialize = true) {
  RunOptions options;
  options.specialize = specialize;
  options.compile = kernelCompileOptions();
  return options;
}

TEST(EdgeCases, NaNStaysInItsRow) {
  for (const char *name : {"layernorm", "llama_rmsnorm", "fused_add_rmsnorm"}) {
    dsl::Spec spec = loadShippedSpec(name);
    CaseData data = makeCase(spec, 3, 4097, 7);
    data.x[data.xStride + 10] = std::numeric_limits<double>::quiet_NaN();
    RunOutputs out;
    Grade grade = runAndGrade(spec, data, defaults(), &out);
    // The reference propagates the NaN the same way; every other row is
    // untouched.
    EXPECT_LE(grade.worst(), 1.0) << name << ": " << grade.str();
    for (int64_t i = 0; i < data.d; ++i) {
      EXPECT_TRUE(std::isfinite(out["y"][i])) << name;
      EXPECT_TRUE(std::isfinite(out["y"][2 * data.d + i])) << name;
      EXPECT_TRUE(std::isnan(out["y"][data.d + i])) << name;
    }
  }
}

// Where a block holds many rows (small d) a NaN or an Inf must still stay
// in its row, in every input type: the reference propagates it the same way
// (NaN statistics, or r = 0 and inf * 0), and the grade requires NaN where
// it has NaN and finite values everywhere else.
TEST(EdgeCases, NaNAndInfStayInTheirRowsAtEveryD) {
  const double poisons[] = {std::numeric_limits<double>::quiet_NaN(),
                            std::numeric_limits<double>::infinity()};
  for (const char *name : {"layernorm", "llama_rmsnorm", "fused_add_rmsnorm"})
    for (dsl::DType type : {dsl::DType::F32, dsl::DType::F16, dsl::DType::BF16})
      for (int64_t d : {7, 64, 1000, 4097})
        for (double poison : poisons) {
          dsl::Spec spec = loadShippedSpec(name);
          spec.input.value = spec.output.value = type;
          const int64_t rows = 9, bad = 4;
          CaseData data = makeCase(spec, rows, d, 100 + d);
          data.x[bad * data.xStride + d / 2] = poison;
          RunOutputs out;
          Grade grade = runAndGrade(spec, data, defaults(), &out);
          std::string what = std::string(name) + " " +
                             std::string(dsl::toString(type)) +
                             " d=" + std::to_string(d) +
                             (std::isnan(poison) ? " NaN" : " Inf");
          EXPECT_LE(grade.worst(), 1.0) << what << ": " << grade.str();
          bool badRowPoisoned = false;
          for (int64_t r = 0; r < rows; ++r)
            for (int64_t i = 0; i < d; ++i) {
              bool finite = std::isfinite(out["y"][r * d + i]);
              if (r == bad)
                badRowPoisoned |= !finite;
              else
                ASSERT_TRUE(finite)
                    << what << ": row " << r << " element " << i;
            }
          EXPECT_TRUE(badRowPoisoned) << what;
        }
}

TEST(EdgeCases, F16NearMaxDoesNotOverflowTheStatistics) {
  for (const char *name : {"layernorm", "llama_rmsnorm"}) {
    dsl::Spec spec = loadShippedSpec(name);
    spec.input.value = dsl::DType::F16;
    spec.output.value = dsl::DType::F16;
    CaseData data = makeCase(spec, 2, 1000, 11);
    for (double &v : data.x)
      v = v < 0 ? -65504.0 : 60000.0;
    RunOutputs out;
    Grade grade = runAndGrade(spec, data, defaults(), &out);
    EXPECT_LE(grade.worst(), 1.0) << name << ": " << grade.str();
    for (double y : out["y"])
      ASSERT_TRUE(std::isfinite(y)) << name;
  }
}

TEST(EdgeCases, RowStrideLargerThanD) {
  for (const char *name : {"layernorm", "fused_add_rmsnorm", "prmsnorm"})
    for (bool specialize : {true, false}) {
      dsl::Spec spec = loadShippedSpec(name);
      CaseData data = makeCase(spec, 5, 1000, 13, 1.0, /*xStride=*/1037);
      Grade grade = runAndGrade(spec, data, defaults(specialize));
      EXPECT_LE(grade.worst(), 1.0) << name << ": " << grade.str();
    }
}

// Base pointers one element past a 16-byte boundary: the kernels must fall
// back to narrower accesses (UBSan's alignment check and the CPU's own
// faults would catch a misaligned vector access).
TEST(EdgeCases, MisalignedBasePointers) {
  for (const char *name : {"llama_rmsnorm", "layernorm", "fused_add_rmsnorm"})
    for (bool specialize : {true, false}) {
      dsl::Spec spec = loadShippedSpec(name);
      RunOptions options = defaults(specialize);
      options.misalignElements = 1;
      CaseData data = makeCase(spec, 3, 4096, 17);
      Grade grade = runAndGrade(spec, data, options);
      EXPECT_LE(grade.worst(), 1.0) << name << ": " << grade.str();
    }
}

// Without scaling, r = 1 and save_stats still stores it.
TEST(EdgeCases, SavedRstdIsOneWithoutScaling) {
  dsl::Spec spec = loadShippedSpec("layernorm");
  spec.scale.value = false;
  spec.saveStats.value = true;
  CaseData data = makeCase(spec, 3, 100, 23);
  RunOutputs out;
  Grade grade = runAndGrade(spec, data, defaults(), &out);
  EXPECT_LE(grade.worst(), 1.0) << grade.str();
  ASSERT_EQ(out["rstd"].size(), 3u);
  for (double r : out["rstd"])
    EXPECT_EQ(r, 1.0);
  EXPECT_EQ(out["mean"].size(), 3u);
}

// Every row storage the emitter supports, on one awkward d, under every lane
// order: a centered partial spec, and the fused residual add whose h is
// both stored and kept.
TEST(EdgeCases, EveryRowStorageAndLaneOrder) {
  for (const char *name : {"partial_layernorm", "fused_add_rmsnorm"}) {
    dsl::Spec spec = loadShippedSpec(name);
    spec.saveStats.value = true;
    for (RowStorage storage :
         {RowStorage::Registers, RowStorage::Shared, RowStorage::Global})
      for (cpu::LaneOrder order : kLaneOrders) {
        RunOptions options = defaults();
        options.schedule.rowStorage = storage;
        options.schedule.threadsPerRow = 64;
        options.schedule.rowsPerBlock = 2;
        options.launch.laneOrder = order;
        options.launch.seed = 5;
        CaseData data = makeCase(spec, 5, 1001, 19);
        Grade grade = runAndGrade(spec, data, options);
        EXPECT_LE(grade.worst(), 1.0)
            << name << " " << toString(storage) << ": " << grade.str();
      }
  }
}

} // namespace
