//===- SpecFileTest.cpp - Reading specs from disk -------------------------===//
//
// parseSpecFile on temporary files, unreadable paths, and the example specs
// shipped in specs/ (NORMC_SPECS_DIR).
//
//===----------------------------------------------------------------------===//
#include "normc/Dsl/Spec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

// CMake passes the absolute path; a bare compile run from the repository
// root finds the specs relative to it.
#ifndef NORMC_SPECS_DIR
#define NORMC_SPECS_DIR "specs"
#endif

using namespace normc::dsl;
namespace fs = std::filesystem;

namespace {

/// Writes `text` to a fresh file under the test temporary directory.
std::string writeTemp(const std::string &name, std::string_view text) {
  fs::path path = fs::path(::testing::TempDir()) / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

Spec readShipped(const std::string &stem) {
  const std::string path = std::string(NORMC_SPECS_DIR) + "/" + stem + ".toml";
  SpecParseResult r = parseSpecFile(path);
  EXPECT_TRUE(r.diagnostics.empty())
      << path << ": " << (r.diagnostics.empty() ? "" : r.diagnostics[0].str());
  EXPECT_TRUE(r.spec) << path;
  return r.spec ? *r.spec : Spec();
}

} // namespace

TEST(SpecFile, ReadsAFileAndNamesItInDiagnostics) {
  std::string path = writeTemp("normc_spec_file_test.toml",
                               "name = \"f\"\n[statistics]\ncenter = true\n"
                               "fraction = 7\n");
  SpecParseResult r = parseSpecFile(path);
  EXPECT_FALSE(r.spec);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].str(),
            path + ":4:12: error: 'fraction' must be in (0, 1], got 7");

  path = writeTemp("normc_spec_file_ok.toml",
                   "name = \"f\"\r\n[statistics]\r\ncenter = true\r\n");
  r = parseSpecFile(path);
  ASSERT_TRUE(r.spec);
  EXPECT_EQ(r.spec->file, path);
  EXPECT_EQ(r.spec->center.loc.file, path);
  EXPECT_EQ(r.spec->center.loc.line, 3u);
  EXPECT_EQ(r.spec->center.loc.column, 10u);
}

TEST(SpecFile, MissingFile) {
  const std::string path =
      (fs::path(::testing::TempDir()) / "normc_no_such_spec.toml").string();
  SpecParseResult r = parseSpecFile(path);
  EXPECT_FALSE(r.spec);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].str(),
            path + ": error: cannot read file: No such file or directory");
}

TEST(SpecFile, Directory) {
  const std::string path = ::testing::TempDir();
  SpecParseResult r = parseSpecFile(path);
  EXPECT_FALSE(r.spec);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].str(),
            path + ": error: cannot read file: Is a directory");
}

TEST(SpecFile, InvalidUtf8IsASyntaxError) {
  std::string path = writeTemp("normc_spec_bad_utf8.toml", "name = \"\xff\"\n");
  SpecParseResult r = parseSpecFile(path);
  EXPECT_FALSE(r.spec);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].str(),
            path + ":1:8: error: Encountered invalid utf-8 sequence");
}

TEST(ShippedSpecs, EveryOneIsValidAndNamedAfterItsFile) {
  unsigned count = 0;
  for (const fs::directory_entry &entry :
       fs::directory_iterator(NORMC_SPECS_DIR)) {
    if (entry.path().extension() != ".toml")
      continue;
    ++count;
    Spec s = readShipped(entry.path().stem().string());
    EXPECT_EQ(s.name.value, entry.path().stem().string());
  }
  EXPECT_GE(count, 7u);
}

TEST(ShippedSpecs, LayerNorm) {
  Spec s = readShipped("layernorm");
  EXPECT_TRUE(s.center.value);
  EXPECT_TRUE(s.scale.value);
  EXPECT_EQ(s.fraction.value, 1.0);
  EXPECT_EQ(s.variance.value, Variance::Biased);
  EXPECT_EQ(s.epsilon.value, 1e-5);
  EXPECT_EQ(s.placement.value, EpsilonPlacement::InsideSqrt);
  EXPECT_TRUE(s.gain.value);
  EXPECT_TRUE(s.bias.value);
  EXPECT_EQ(s.input.value, DType::F32);
  EXPECT_EQ(s.output.value, DType::F32);
  EXPECT_EQ(s.accumulate.value, DType::F32);
}

TEST(ShippedSpecs, LlamaRMSNorm) {
  Spec s = readShipped("llama_rmsnorm");
  EXPECT_FALSE(s.center.value);
  EXPECT_EQ(s.epsilon.value, 1e-6);
  EXPECT_EQ(s.placement.value, EpsilonPlacement::InsideSqrt);
  EXPECT_TRUE(s.gain.value);
  EXPECT_EQ(s.gainOffset.value, 0.0);
  EXPECT_FALSE(s.bias.value);
  EXPECT_EQ(s.normalized.value, NormalizedRounding::Input);
  EXPECT_EQ(s.input.value, DType::BF16);
  EXPECT_EQ(s.output.value, DType::BF16);
  EXPECT_EQ(s.params.value, DType::BF16);
  EXPECT_EQ(s.accumulate.value, DType::F32);
}

TEST(ShippedSpecs, GemmaRMSNorm) {
  Spec s = readShipped("gemma_rmsnorm");
  EXPECT_FALSE(s.center.value);
  EXPECT_EQ(s.gainOffset.value, 1.0);
  EXPECT_EQ(s.epsilon.value, 1e-6);
  EXPECT_EQ(s.input.value, DType::BF16);
  EXPECT_EQ(s.accumulate.value, DType::F32);
}

TEST(ShippedSpecs, PRMSNorm) {
  Spec s = readShipped("prmsnorm");
  EXPECT_FALSE(s.center.value);
  EXPECT_EQ(s.fraction.value, 0.0625);
  EXPECT_EQ(s.epsilon.value, 1e-8);
  EXPECT_EQ(s.placement.value, EpsilonPlacement::OutsideSqrt);
  EXPECT_EQ(s.input.value, DType::F32);
}

TEST(ShippedSpecs, T5LayerNorm) {
  Spec s = readShipped("t5_layernorm");
  EXPECT_FALSE(s.center.value);
  EXPECT_EQ(s.normalized.value, NormalizedRounding::Params);
  EXPECT_EQ(s.epsilon.value, 1e-6);
  EXPECT_FALSE(s.bias.value);
  EXPECT_EQ(s.accumulate.value, DType::F32);
}

TEST(ShippedSpecs, FusedAddRMSNorm) {
  Spec s = readShipped("fused_add_rmsnorm");
  EXPECT_FALSE(s.center.value);
  EXPECT_TRUE(s.residualAdd.value);
  EXPECT_TRUE(s.saveStats.value);
  EXPECT_EQ(s.epsilon.value, 1e-6);
  EXPECT_EQ(s.input.value, DType::BF16);
}

TEST(ShippedSpecs, PartialLayerNorm) {
  Spec s = readShipped("partial_layernorm");
  EXPECT_TRUE(s.center.value);
  EXPECT_EQ(s.fraction.value, 0.5);
  EXPECT_TRUE(s.gain.value);
  EXPECT_TRUE(s.bias.value);
}
