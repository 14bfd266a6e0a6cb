//===- PrecompiledHeaderTest.cpp - CpuCuda.h precompiled, as a cache entry ===//

#include "PrecompiledHeader.h"
#include "CpuTestUtil.h"

#include "normc/Runtime/Cache/DiskCache.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

using namespace normc::cpu;
using namespace normc::cpu::test;
namespace fs = std::filesystem;

namespace {

const char *kIota = R"(
NORMC_KERNEL(32, iota)(float *__restrict__ out) {
  out[threadIdx.x] = rsqrtf(static_cast<float>(threadIdx.x + 1));
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_iota(void **args) {
  NORMC_CPU_KERNEL(iota)(*reinterpret_cast<float *const *>(args[0]));
}
#endif
)";

std::string fileBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool isGccHeader(const std::string &bytes) {
  return bytes.compare(0, 4, "gpch") == 0;
}

float runIota(const CpuKernel &kernel) {
  std::vector<float> out(32);
  float *outPtr = out.data();
  void *args[] = {&outPtr};
  launch(kernel, Dim3{1}, Dim3{32}, 0, args);
  return out[3];
}

class PrecompiledHeader : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "normc-pch-test-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir = pattern;
    request.flags = {"c++", "-std=c++17", "-O2", "-DNORMC_CPU",
                     "-I" NORMC_CPU_CUDA_INCLUDE_DIR};
    request.compilerIdentity = "the test's c++";
    request.headers = {NORMC_CPU_HEADER_DIR,
                       fileBytes(NORMC_CPU_HEADER_DIR "/CpuCuda.h"),
                       fileBytes(NORMC_CPU_HEADER_DIR "/CpuAbi.h")};
  }
  void TearDown() override { fs::remove_all(dir); }

  /// loadOrPrecompile in a fresh private folder.
  std::string load(const normc::cache::DiskCache &cache, bool &built) {
    std::unique_ptr<PrivateFolder> folder = copyHeaders(request.headers);
    return loadOrPrecompile(request, cache, *folder, built);
  }

  /// A compiler that runs c++ for kernels and writes `header` as the
  /// precompiled header.
  std::string compilerWriting(const std::string &header) {
    std::string path = dir + "/fake-pch-c++";
    std::ofstream script(path);
    script << "#!/bin/sh\ncase \"$*\" in *c++-header*)\n"
           << "  for a; do [ \"$prev\" = -o ] && printf '" << header
           << "' > \"$a\"; prev=$a; done; exit 0 ;;\nesac\nexec c++ \"$@\"\n";
    script.close();
    fs::permissions(path, fs::perms::owner_all);
    return path;
  }

  std::string dir;
  PrecompileRequest request;
};

TEST_F(PrecompiledHeader, IsAGccHeaderKeptInTheCache) {
  normc::cache::DiskCache cache(dir + "/cache", "cpu");
  bool built = false;
  std::string first = load(cache, built);
  EXPECT_TRUE(built);
  EXPECT_TRUE(isGccHeader(first));
  EXPECT_TRUE(fs::exists(cache.pathFor(request.key())));

  // (EXPECT_TRUE: a failing EXPECT_EQ would diff megabytes.)
  std::string second = load(cache, built);
  EXPECT_FALSE(built);
  EXPECT_TRUE(second == first);

  // Anything that shapes it is in the key.
  std::string key = request.key();
  request.flags.push_back("-O1");
  EXPECT_NE(request.key(), key);
  request.flags.pop_back();
  request.headers.cpuAbi += "\n";
  EXPECT_NE(request.key(), key);
}

TEST_F(PrecompiledHeader, ACorruptOrForeignEntryIsBuiltAnew) {
  normc::cache::DiskCache cache(dir + "/cache", "cpu");
  bool built = false;
  load(cache, built);
  std::string entry = cache.pathFor(request.key());

  // One byte flipped in the middle: the entry's checksum fails. (GCC does
  // not write the same bytes twice: the rebuilt header is compared by
  // kind.)
  {
    std::fstream file(entry, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(fs::file_size(entry) / 2));
    file.put('\x5a');
  }
  EXPECT_TRUE(isGccHeader(load(cache, built)));
  EXPECT_TRUE(built);

  // A whole entry that is not a GCC precompiled header.
  ASSERT_TRUE(cache.put(request.key(), "CPCH: some other compiler's"));
  std::string rebuilt = load(cache, built);
  EXPECT_TRUE(isGccHeader(rebuilt));
  EXPECT_TRUE(built);
  EXPECT_TRUE(load(cache, built) == rebuilt);
  EXPECT_FALSE(built);
}

TEST_F(PrecompiledHeader, TheObjectIsTheSameWithAndWithout) {
  CompileOptions options;
  options.cacheDir = dir + "/with";
  CpuModule with = CpuModule::compile(kPreamble + std::string(kIota), options);
  options.cacheDir = dir + "/without";
  options.precompiledHeader = false;
  CpuModule without =
      CpuModule::compile(kPreamble + std::string(kIota), options);
  ASSERT_FALSE(with.libraryPath().empty());
  EXPECT_TRUE(fileBytes(with.libraryPath()) ==
              fileBytes(without.libraryPath()));
  EXPECT_FLOAT_EQ(runIota(with.kernel("iota")), 0.5f);
  // The precompiled header is an entry beside the object; none without it.
  auto entries = [](const std::string &root) {
    int count = 0;
    for (const fs::directory_entry &e : fs::recursive_directory_iterator(root))
      count += e.path().extension() == ".bin";
    return count;
  };
  EXPECT_EQ(entries(dir + "/with"), 2);
  EXPECT_EQ(entries(dir + "/without"), 1);
}

TEST_F(PrecompiledHeader, AHeaderThatDoesNotFitIsParsedInstead) {
  // A real GCC precompiled header, but of other flags, under this compile's
  // key: GCC finds it beside the header, sees that it does not fit, and
  // parses the header's copy instead.
  normc::cache::DiskCache cache(dir + "/cache", "cpu");
  CompileOptions options;
  options.cacheDir = dir + "/cache";
  options.extraFlags = {"-O1", "-DNORMC_PCH_TEST_" + std::to_string(getpid())};
  PrecompileRequest own = precompileRequest(options), other = own;
  other.flags.push_back("-O3");
  bool built = false;
  std::unique_ptr<PrivateFolder> folder = copyHeaders(other.headers);
  std::string misfit = loadOrPrecompile(other, cache, *folder, built);
  ASSERT_TRUE(isGccHeader(misfit));
  ASSERT_TRUE(cache.put(own.key(), misfit));

  CpuModule module =
      CpuModule::compile(kPreamble + std::string(kIota), options);
  EXPECT_FALSE(module.cacheHit());
  EXPECT_FLOAT_EQ(runIota(module.kernel("iota")), 0.5f);
  EXPECT_TRUE(*cache.get(own.key()) == misfit);
}

TEST_F(PrecompiledHeader, ACompilerWithoutGccHeadersParsesTheHeader) {
  normc::cache::DiskCache cache(dir + "/cache", "cpu");
  request.flags[0] = compilerWriting("CPCH");
  bool built = false;
  EXPECT_EQ(load(cache, built), "");
  EXPECT_TRUE(built);
  // Stored as "none", so that the next process does not try again.
  EXPECT_EQ(load(cache, built), "");
  EXPECT_FALSE(built);

  CompileOptions options;
  options.cacheDir = dir + "/cache";
  options.compiler = request.flags[0];
  CpuModule module =
      CpuModule::compile(kPreamble + std::string(kIota), options);
  EXPECT_FLOAT_EQ(runIota(module.kernel("iota")), 0.5f);
}

} // namespace
