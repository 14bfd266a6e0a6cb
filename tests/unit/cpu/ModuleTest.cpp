//===- ModuleTest.cpp - Compiling, caching and loading kernel source ------===//

#include "CpuTestUtil.h"

#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <thread>
#include <vector>

using namespace normc::cpu;
using namespace normc::cpu::test;
namespace fs = std::filesystem;

namespace {

const char *kFill = R"(
NORMC_KERNEL(32, fill)(int *__restrict__ out, int value) {
  out[threadIdx.x] = value + static_cast<int>(threadIdx.x);
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_fill(void **args) {
  NORMC_CPU_KERNEL(fill)(*reinterpret_cast<int *const *>(args[0]),
       *reinterpret_cast<const int *>(args[1]));
}
#endif
)";

/// A fresh cache directory and a compiler wrapper that counts the kernels
/// it compiles.
class ModuleTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "normc-module-test-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir = pattern;
    compiler = dir + "/counting-c++";
    std::ofstream script(compiler);
    // Runs that precompile CpuCuda.h are not counted: each new compiler
    // (this script) precompiles it once.
    script << "#!/bin/sh\ncase \"$*\" in *c++-header*) ;; *) echo run >> '"
           << dir << "/runs' ;; esac\nexec c++ \"$@\"\n";
    script.close();
    fs::permissions(compiler, fs::perms::owner_all);
    options.cacheDir = dir + "/cache";
    options.compiler = compiler;
  }

  void TearDown() override { fs::remove_all(dir); }

  unsigned compilerRuns() const {
    std::ifstream runs(dir + "/runs");
    unsigned count = 0;
    for (std::string line; std::getline(runs, line);)
      ++count;
    return count;
  }

  std::string dir, compiler;
  CompileOptions options;
};

int runFill(const CpuKernel &kernel, int value) {
  std::vector<int> out(32);
  int *outPtr = out.data();
  void *args[] = {&outPtr, &value};
  launch(kernel, Dim3{1}, Dim3{32}, 0, args);
  return out[31];
}

TEST_F(ModuleTest, SecondCompileIsACacheHit) {
  CpuModule first = CpuModule::compile(kPreamble + std::string(kFill), options);
  EXPECT_FALSE(first.cacheHit());
  EXPECT_EQ(compilerRuns(), 1u);
  EXPECT_EQ(first.libraryPath().rfind(options.cacheDir + "/cpu/", 0), 0u);
  auto written = fs::last_write_time(first.libraryPath());

  CpuModule second =
      CpuModule::compile(kPreamble + std::string(kFill), options);
  EXPECT_TRUE(second.cacheHit());
  EXPECT_EQ(compilerRuns(), 1u);
  EXPECT_EQ(second.libraryPath(), first.libraryPath());
  EXPECT_EQ(fs::last_write_time(second.libraryPath()), written);
  EXPECT_EQ(runFill(second.kernel("fill"), 10), 41);

  // Anything that shapes the object makes a new one.
  options.extraFlags = {"-O1"};
  CpuModule third = CpuModule::compile(kPreamble + std::string(kFill), options);
  EXPECT_FALSE(third.cacheHit());
  EXPECT_EQ(compilerRuns(), 2u);
  EXPECT_NE(third.libraryPath(), first.libraryPath());
  // Only finished objects (cache entries) and their sources are left
  // behind.
  for (const fs::directory_entry &entry :
       fs::recursive_directory_iterator(options.cacheDir + "/cpu"))
    EXPECT_TRUE(entry.is_directory() || entry.path().extension() == ".bin" ||
                entry.path().extension() == ".cpp")
        << entry.path();
}

TEST_F(ModuleTest, TruncatedObjectIsRebuiltNotLoaded) {
  std::string entry =
      CpuModule::compile(kPreamble + std::string(kFill), options).libraryPath();
  for (uintmax_t length :
       {uintmax_t(0), uintmax_t(100), fs::file_size(entry) / 2,
        fs::file_size(entry) - 1}) {
    fs::resize_file(entry, length);
    CpuModule again =
        CpuModule::compile(kPreamble + std::string(kFill), options);
    EXPECT_FALSE(again.cacheHit()) << length;
    EXPECT_EQ(runFill(again.kernel("fill"), 2), 33) << length;
  }
  EXPECT_EQ(compilerRuns(), 5u);
}

TEST_F(ModuleTest, AnotherSourcesObjectIsNeverLoaded) {
  // Another source's object in this one's place, whole and valid as an
  // entry of its own key, is compiled over, not run.
  std::string otherEntry = CpuModule::compile(std::string(kPreamble) + R"(
NORMC_KERNEL(32, fill)(int *__restrict__ out, int value) {
  out[threadIdx.x] = -1;
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_fill(void **args) {
  NORMC_CPU_KERNEL(fill)(*reinterpret_cast<int *const *>(args[0]), 0);
}
#endif
)",
                                              options)
                               .libraryPath();
  std::string entry =
      CpuModule::compile(kPreamble + std::string(kFill), options).libraryPath();
  fs::copy_file(otherEntry, entry, fs::copy_options::overwrite_existing);
  CpuModule again = CpuModule::compile(kPreamble + std::string(kFill), options);
  EXPECT_FALSE(again.cacheHit());
  EXPECT_EQ(runFill(again.kernel("fill"), 10), 41);
  EXPECT_EQ(compilerRuns(), 3u);
}

TEST_F(ModuleTest, CompilesWithoutAUsableCache) {
  // A file where the cache folder should be: every compile works, from a
  // private folder, and nothing is cached.
  std::ofstream(options.cacheDir) << "not a folder";
  for (int run = 0; run < 2; ++run) {
    CpuModule module =
        CpuModule::compile(kPreamble + std::string(kFill), options);
    EXPECT_FALSE(module.cacheHit());
    EXPECT_EQ(module.libraryPath(), "");
    EXPECT_EQ(runFill(module.kernel("fill"), 1), 32);
  }
  EXPECT_EQ(compilerRuns(), 2u);
}

TEST_F(ModuleTest, UntrustedCacheIsNotUsed) {
  // A cache folder others can write could hold their code: not read.
  CpuModule::compile(kPreamble + std::string(kFill), options);
  fs::permissions(options.cacheDir, fs::perms::all);
  CpuModule again = CpuModule::compile(kPreamble + std::string(kFill), options);
  EXPECT_FALSE(again.cacheHit());
  EXPECT_EQ(runFill(again.kernel("fill"), 0), 31);
  EXPECT_EQ(compilerRuns(), 2u);
}

TEST_F(ModuleTest, KernelsOutliveTheirModule) {
  CpuKernel kernel = CpuModule::compile(kPreamble + std::string(kFill), options)
                         .kernel("fill");
  EXPECT_EQ(runFill(kernel, 1), 32);
}

TEST_F(ModuleTest, ConcurrentCompilesOfOneSource) {
  std::vector<std::thread> threads;
  std::vector<int> results(3);
  for (unsigned i = 0; i < results.size(); ++i)
    threads.emplace_back([&, i] {
      CpuModule module =
          CpuModule::compile(kPreamble + std::string(kFill), options);
      results[i] = runFill(module.kernel("fill"), int(i));
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(results, (std::vector<int>{31, 32, 33}));
}

TEST_F(ModuleTest, CompileErrorCarriesTheCompilerOutput) {
  try {
    CpuModule::compile(kPreamble + std::string(R"(
NORMC_KERNEL(32, broken)(float *out) { out[0] = undeclared_identifier_42; }
)"),
                       options);
    FAIL() << "compiled";
  } catch (const CpuCompileError &e) {
    EXPECT_TRUE(contains(e.compilerOutput(), "undeclared_identifier_42"));
    EXPECT_TRUE(contains(e.compilerOutput(), "error"));
    EXPECT_TRUE(contains(e.what(), "undeclared_identifier_42"));
    EXPECT_TRUE(contains(e.what(), "exited with status 1"));
  }
}

TEST_F(ModuleTest, PlainSharedIsACompileError) {
  try {
    CpuModule::compile(kPreamble + std::string(R"(
NORMC_KERNEL(32, plain)(float *out) { __shared__ float s[32]; out[0] = s[0]; }
)"),
                       options);
    FAIL() << "compiled";
  } catch (const CpuCompileError &e) {
    EXPECT_TRUE(contains(e.compilerOutput(), "NORMC_STATIC_SHARED"));
  }
}

TEST_F(ModuleTest, MissingCompiler) {
  options.compiler = dir + "/no-such-compiler";
  try {
    CpuModule::compile(kPreamble + std::string(kFill), options);
    FAIL() << "compiled";
  } catch (const CpuCompileError &e) {
    EXPECT_TRUE(contains(e.what(), "could not be started"));
  }
}

TEST_F(ModuleTest, MissingKernel) {
  CpuModule module =
      CpuModule::compile(kPreamble + std::string(kFill), options);
  try {
    module.kernel("nope");
    FAIL() << "found";
  } catch (const CpuLaunchError &e) {
    EXPECT_TRUE(contains(e.what(), "normc_cpu_entry_nope is missing"));
  }
}

} // namespace
