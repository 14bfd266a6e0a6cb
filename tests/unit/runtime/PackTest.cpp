//===- PackTest.cpp - Kernel packs and launch facts as text ---------------===//
#include "normc/Runtime/Host/Pack.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>

using namespace normc;
namespace fs = std::filesystem;

namespace {

KernelLaunchInfo sampleInfo() {
  KernelLaunchInfo info;
  info.name = "llama";
  info.d = 4096;
  info.blockSize = 128;
  info.rowsPerBlock = 1;
  info.vectorWidth = 8;
  // Two kept rows: bf16 and f32, each rounded up to whole vectors of 8.
  info.shared.regions = {{1, 2, 8}, {1, 4, 8}};
  using Kind = KernelParam::Kind;
  info.params = {{Kind::Rows, "x", "bf16", false},
                 {Kind::RowStride, "x_stride", "", false},
                 {Kind::Stats, "rstd", "f32", true},
                 {Kind::RowCount, "rows", "", false},
                 {Kind::D, "d", "", false}};
  return info;
}

/// A source declaring the kernels of sampleInfo() and of its finish (the
/// declaration is what a manifest's parameter lists are checked against).
const char kSource[] =
    "NORMC_KERNEL(128, llama)(const __nv_bfloat16 *x, long long x_stride, "
    "float *rstd, long long rows, int d) {}\n"
    "NORMC_KERNEL(128, llama_finish)(const __nv_bfloat16 *x, long long "
    "x_stride, float *rstd, long long rows, int d) {}\n";

bool sameInfo(const KernelLaunchInfo &a, const KernelLaunchInfo &b) {
  if (a.params.size() != b.params.size())
    return false;
  for (size_t i = 0; i < a.params.size(); ++i)
    if (a.params[i].kind != b.params[i].kind ||
        a.params[i].name != b.params[i].name ||
        a.params[i].elementType != b.params[i].elementType ||
        a.params[i].written != b.params[i].written)
      return false;
  return a.name == b.name && a.d == b.d && a.blockSize == b.blockSize &&
         a.rowsPerBlock == b.rowsPerBlock && a.vectorWidth == b.vectorWidth &&
         a.shared == b.shared && a.groupSize == b.groupSize &&
         a.clusterSize == b.clusterSize;
}

class PackTest : public ::testing::Test {
protected:
  void SetUp() override {
    char pattern[] = "/tmp/normc-pack-test-XXXXXX";
    root = mkdtemp(pattern);
  }
  void TearDown() override { fs::remove_all(root); }
  fs::path root;
};

TEST(KernelInfoText, RoundTrips) {
  KernelLaunchInfo info = sampleInfo();
  std::optional<KernelLaunchInfo> back = kernelInfoFromText(toText(info));
  ASSERT_TRUE(back);
  EXPECT_TRUE(sameInfo(info, *back)) << toText(*back);
  info.d.reset();
  EXPECT_EQ(back->dynamicSharedBytes(1001), 1008 * 2 + 1008 * 4);
  info.shared.regions.clear();
  back = kernelInfoFromText(toText(info));
  ASSERT_TRUE(back);
  EXPECT_TRUE(sameInfo(info, *back)) << toText(*back);
  // Block scales: the group size, the table and a Groups buffer.
  info.groupSize = 128;
  info.shared.regions = {{1, 4, 1, 0, 128}};
  info.params.insert(info.params.begin() + 2,
                     {KernelParam::Kind::Groups, "scale", "f32", true});
  back = kernelInfoFromText(toText(info));
  ASSERT_TRUE(back);
  EXPECT_TRUE(sameInfo(info, *back)) << toText(*back);
  EXPECT_EQ(back->dynamicSharedBytes(1000), 32); // 8 groups of 4 bytes
  // With a reproducible kernel's tile table after it, of another group.
  info.shared.regions.push_back({1, 4, 1, 0, 256});
  back = kernelInfoFromText(toText(info));
  ASSERT_TRUE(back);
  EXPECT_TRUE(sameInfo(info, *back)) << toText(*back);
  EXPECT_EQ(back->dynamicSharedBytes(1000), 32 + 16); // and 4 tiles
}

TEST(KernelInfoText, ClustersRoundTripAndSizeTheLaunch) {
  KernelLaunchInfo info = sampleInfo();
  info.d = 262144;
  info.blockSize = 1024;
  info.rowsPerBlock = 1;
  info.vectorWidth = 8;
  info.clusterSize = 8;
  // A block keeps its slice of the row: 32768 bf16 features.
  info.shared.regions = {{1, 2, 8, 32768}};
  std::optional<KernelLaunchInfo> back = kernelInfoFromText(toText(info));
  ASSERT_TRUE(back) << toText(info);
  EXPECT_TRUE(sameInfo(info, *back)) << toText(*back);
  EXPECT_EQ(back->dynamicSharedBytes(262144), 65536);
  // A cluster per row, and a capped grid stays whole clusters.
  EXPECT_EQ(back->gridFor(5), 40);
  std::vector<KernelLaunch> plan = planLaunches({*back}, 1000, 262144, 100);
  EXPECT_EQ(plan[0].grid, 96);
  plan = planLaunches({*back}, 1000, 262144, 3);
  EXPECT_EQ(plan[0].grid, 8);
}

TEST(SharedLayout, PlacesRegionsOneAfterAnotherAlignedTo16) {
  // Three rows of 1001 bf16 features in vectors of 4 (1004, 6024 bytes,
  // rounded to 6032), then a table of f32 per group of 64 (16 groups).
  SharedLayout layout;
  layout.regions = {{3, 2, 4}, {3, 4, 1, 0, 64}};
  EXPECT_EQ(layout.offset(0, 1001), 0);
  EXPECT_EQ(layout.offset(1, 1001), 6032);
  EXPECT_EQ(layout.bytes(1001), 6032 + 3 * 16 * 4);
  std::optional<SharedLayout> back = SharedLayout::parse(layout.str());
  ASSERT_TRUE(back) << layout.str();
  EXPECT_EQ(*back, layout);
  EXPECT_EQ(layout.str(), "3:2:v4,3:4:g64");
  // A fixed width (a cluster's slice) ignores d.
  back = SharedLayout::parse("1:4:v8:f512");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->bytes(100000), 2048);
  // No more regions than a kernel can have: hostile text stays bounded.
  std::string many = "1:8:v1";
  for (int i = 0; i < 64; ++i)
    many += ",1:8:v1";
  EXPECT_FALSE(SharedLayout::parse(many));
  for (const char *text : {"1:4", "1:4:x4", "1:4:v", "a:4:v4", "1:4:v4:g2",
                           "1:4:v4:f1:f2", ",1:4:v4", "1:4:g64:f512"})
    EXPECT_FALSE(SharedLayout::parse(text)) << text;
}

TEST(KernelInfoText, MalformedIsRejected) {
  for (const char *text :
       {"", "name=k",
        "name=k d=abc block=1 rows_per_block=1 "
        "vector_width=1 shared= params=x:rows:f32:r",
        "name=k d=1 block=1 rows_per_block=1 vector_width=1 shared= "
        "params=x:bogus:f32:r",
        "name=k d=1 block=1 rows_per_block=1 vector_width=1 color=red "
        "params=x:rows:f32:r",
        // Well-formed, but nothing a launch allows.
        "name=k d=1 block=4096 rows_per_block=1 vector_width=1 shared= "
        "params=x:rows:f32:r",
        "name=k d=1 block=32 rows_per_block=64 vector_width=1 shared= "
        "params=x:rows:f32:r",
        "name=k d=1 block=32 rows_per_block=1 vector_width=1 shared=3 "
        "params=x:rows:f32:r",
        "name=k d=0 block=32 rows_per_block=1 vector_width=1 shared= "
        "params=x:rows:f32:r",
        "name=k d=1 block=32 rows_per_block=1 vector_width=1 "
        "launch_order=-1 shared= params=x:rows:f32:r",
        // Groups that are not a power of two in [16, 1024], a table of
        // 3-byte elements, a Groups buffer without a group size. (A table
        // of another group size than the kernel's is a reproducible
        // kernel's tile table.)
        "name=k d=1 block=32 rows_per_block=1 vector_width=1 "
        "shared=1:4:g96 group=96 params=x:rows:f32:r",
        "name=k d=1 block=32 rows_per_block=1 vector_width=1 "
        "shared=1:4:g2048 group=2048 params=x:rows:f32:r",
        "name=k d=1 block=32 rows_per_block=1 vector_width=1 "
        "shared=1:3:g128 group=128 params=x:rows:f32:r",
        "name=k d=1 block=32 rows_per_block=1 vector_width=1 "
        "shared=1:4:g8 group=128 params=x:rows:f32:r",
        // Regions of another row count than the block's, of no bytes, of a
        // vector width that is no power of two, with a fixed width of 0 or
        // a trailing comma.
        "name=k d=1 block=32 rows_per_block=1 vector_width=1 "
        "shared=2:4:v1 params=x:rows:f32:r",
        "name=k d=1 block=32 rows_per_block=1 vector_width=1 "
        "shared=1:0:v1 params=x:rows:f32:r",
        "name=k d=1 block=32 rows_per_block=1 vector_width=1 "
        "shared=1:4:v3 params=x:rows:f32:r",
        "name=k d=1 block=32 rows_per_block=1 vector_width=1 "
        "shared=1:4:v1:f0 params=x:rows:f32:r",
        "name=k d=1 block=32 rows_per_block=1 vector_width=1 "
        "shared=1:4:v1, params=x:rows:f32:r",
        "name=k d=1 block=32 rows_per_block=1 vector_width=1 shared= "
        "params=x:rows:f32:r,scale:groups:f32:w",
        // Clusters of 3 or 16 blocks, of two rows a block, for any d.
        "name=k d=64 block=32 rows_per_block=1 vector_width=1 shared= "
        "cluster=3 params=x:rows:f32:r",
        "name=k d=64 block=32 rows_per_block=1 vector_width=1 shared= "
        "cluster=16 params=x:rows:f32:r",
        "name=k d=64 block=32 rows_per_block=2 vector_width=1 shared= "
        "cluster=2 params=x:rows:f32:r",
        "name=k d=runtime block=32 rows_per_block=1 vector_width=1 "
        "shared= cluster=2 params=x:rows:f32:r"})
    EXPECT_FALSE(kernelInfoFromText(text)) << text;
}

TEST_F(PackTest, WritesAndReadsBack) {
  Pack pack;
  pack.normcVersion = "9.9";
  pack.specToml = "name = \"llama\"\n";
  pack.d = 4096;
  KernelLaunchInfo finish = sampleInfo();
  finish.name = "llama_finish";
  finish.launchOrder = 1;
  pack.candidates = {{Schedule::rowGroup(1, 128, 8, RowStorage::Registers),
                      std::string("// one\n") + kSource,
                      {sampleInfo()},
                      Program::forward()},
                     {Schedule::rowGroup(4, 32, 4, RowStorage::Global),
                      std::string("// two\n") + kSource,
                      {sampleInfo(), finish},
                      Program::gradient(true, false)}};
  std::string dir = (root / "pack").string();
  writePack(dir, pack);
  Pack back = readPack(dir);
  EXPECT_EQ(back.normcVersion, "9.9");
  EXPECT_EQ(back.specToml, pack.specToml);
  EXPECT_EQ(back.d, 4096);
  ASSERT_EQ(back.candidates.size(), 2u);
  EXPECT_EQ(back.candidates[1].schedule, pack.candidates[1].schedule);
  EXPECT_EQ(back.candidates[1].source, std::string("// two\n") + kSource);
  ASSERT_EQ(back.candidates[0].kernels.size(), 1u);
  EXPECT_TRUE(sameInfo(back.candidates[0].kernels[0], sampleInfo()));
  EXPECT_EQ(back.candidates[0].program, Program::forward());
  // A backward candidate keeps its program and both kernels, in order.
  EXPECT_EQ(back.candidates[1].program, Program::gradient(true, false));
  ASSERT_EQ(back.candidates[1].kernels.size(), 2u);
  EXPECT_TRUE(sameInfo(back.candidates[1].kernels[1], finish));

  // Writing again replaces the pack as a whole; nothing else is left over.
  pack.candidates.pop_back();
  writePack(dir, pack);
  EXPECT_EQ(readPack(dir).candidates.size(), 1u);
  EXPECT_FALSE(fs::exists(root / "pack" / "candidate-1.cu"));
  EXPECT_EQ(
      std::distance(fs::directory_iterator(root), fs::directory_iterator()), 1);
}

TEST_F(PackTest, RefusesToReplaceAFolderThatIsNotAPack) {
  fs::create_directories(root / "data");
  std::ofstream(root / "data" / "precious.txt") << "keep me";
  Pack pack;
  pack.candidates = {{Schedule::rowGroup(1, 32, 1, RowStorage::Global),
                      "",
                      {sampleInfo()},
                      Program::forward()}};
  EXPECT_THROW(writePack((root / "data").string(), pack), PackError);
  EXPECT_TRUE(fs::exists(root / "data" / "precious.txt"));
}

TEST_F(PackTest, BadPacksAreNamedErrors) {
  auto messageOf = [&](const std::string &dir) {
    try {
      readPack(dir);
    } catch (const PackError &error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(messageOf((root / "missing").string()).find("cannot read"),
            std::string::npos);
  fs::create_directories(root / "bad");
  std::ofstream(root / "bad" / "manifest.txt") << "hello\n";
  EXPECT_NE(messageOf((root / "bad").string())
                .find("manifest.txt:1: not a normc pack"),
            std::string::npos);
  std::ofstream(root / "bad" / "manifest.txt")
      << "normc-pack 2\ncandidate gone.cu strategy=row_group,rows_per_block=1,"
         "threads_per_row=32,vector_width=1,row_storage=global\n";
  EXPECT_NE(messageOf((root / "bad").string()).find("gone.cu: cannot read"),
            std::string::npos);
  std::ofstream(root / "bad" / "manifest.txt")
      << "normc-pack 2\ncandidate ../x.cu rows_per_block=1\n";
  EXPECT_NE(messageOf((root / "bad").string()).find("bad candidate line"),
            std::string::npos);
  // A well-formed schedule that cannot run is not a candidate either.
  std::ofstream(root / "bad" / "manifest.txt")
      << "normc-pack 2\ncandidate gone.cu strategy=row_group,rows_per_block=1,"
         "threads_per_row=48,vector_width=1,row_storage=global\n";
  EXPECT_NE(messageOf((root / "bad").string()).find("bad candidate line"),
            std::string::npos);
}

/// A pack written with kSource, its manifest edited by `edit`: the error
/// readPack gives, or "no error".
class ManifestTest : public PackTest {
protected:
  std::string
  readEdited(const std::function<void(std::string &manifest)> &edit) {
    Pack pack;
    pack.normcVersion = "9.9";
    pack.specToml = "name = \"llama\"\n";
    pack.d = 4096;
    pack.candidates = {{Schedule::rowGroup(1, 128, 8, RowStorage::Registers),
                        kSource,
                        {sampleInfo()},
                        Program::forward()}};
    fs::path dir = root / "pack";
    writePack(dir.string(), pack);
    std::ifstream in(dir / "manifest.txt");
    std::string manifest((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
    edit(manifest);
    std::ofstream(dir / "manifest.txt") << manifest;
    try {
      readPack(dir.string());
    } catch (const PackError &error) {
      return error.what();
    }
    return "no error";
  }
  static void replace(std::string &text, const std::string &from,
                      const std::string &to) {
    size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  }
};

TEST_F(ManifestTest, AnUneditedPackReads) {
  EXPECT_EQ(readEdited([](std::string &) {}), "no error");
}

// A manifest is data, checked against the kernel it describes: one that
// names fewer parameters than the kernel declares would have it read past
// its argument array.
TEST_F(ManifestTest, ParametersMustBeTheKernelsOwn) {
  std::string cut = readEdited([](std::string &m) {
    m = m.substr(0, m.find("params=") + 7) + "x:rows:bf16:r\n";
  });
  EXPECT_NE(cut.find("manifest.txt:6: kernel 'llama' takes 5 parameters, the "
                     "manifest lists 1"),
            std::string::npos)
      << cut;
  std::string dropped =
      readEdited([](std::string &m) { replace(m, "rstd:stats:f32:w,", ""); });
  EXPECT_NE(dropped.find("takes 5 parameters, the manifest lists 4"),
            std::string::npos)
      << dropped;
  std::string renamed = readEdited([](std::string &m) {
    replace(m, "rstd:stats:f32:w", "mean:stats:f32:w");
  });
  EXPECT_NE(renamed.find("parameter 3 of kernel 'llama' is 'float *rstd'"),
            std::string::npos)
      << renamed;
  std::string readOnly = readEdited([](std::string &m) {
    replace(m, "rstd:stats:f32:w", "rstd:stats:f32:r");
  });
  EXPECT_NE(readOnly.find("parameter 3"), std::string::npos) << readOnly;
  std::string otherBlock =
      readEdited([](std::string &m) { replace(m, "block=128", "block=256"); });
  EXPECT_NE(otherBlock.find("declares no kernel 'llama' of 256 threads"),
            std::string::npos)
      << otherBlock;
}

TEST_F(ManifestTest, NumbersAreWholeAndInRange) {
  for (const char *d : {"64abc", "0", "-5", "1099511627776", ""}) {
    std::string message = readEdited(
        [&](std::string &m) { replace(m, "d 4096", std::string("d ") + d); });
    EXPECT_NE(message.find("manifest.txt:3: d must be 'runtime' or a whole "
                           "number in [1, 16777216]"),
              std::string::npos)
        << d << ": " << message;
  }
  std::string other =
      readEdited([](std::string &m) { replace(m, "d=4096", "d=1024"); });
  EXPECT_NE(other.find("the kernel's d (1024) is not the pack's"),
            std::string::npos)
      << other;
  std::string letters = readEdited([](std::string &m) {
    replace(m, "vector_width=8 launch", "vector_width=8x launch");
  });
  EXPECT_NE(letters.find("bad info line"), std::string::npos) << letters;
}

} // namespace
