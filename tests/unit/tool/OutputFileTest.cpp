//===- OutputFileTest.cpp - normc's outputs: in place, through, or whole --===//
#include "../../../tools/normc/OutputFile.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <thread>

using namespace normc::tool;
namespace fs = std::filesystem;

namespace {

class OutputFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "normc-output-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir = pattern;
  }
  void TearDown() override { fs::remove_all(dir); }

  std::string read(const std::string &path) const {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  void write(const std::string &path, const std::string &text) const {
    std::ofstream(path, std::ios::binary) << text;
  }
  /// Every name in the folder, so that leftovers show.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const fs::directory_entry &e : fs::directory_iterator(dir))
      out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }

  std::string dir;
};

TEST_F(OutputFileTest, DevicesAreWrittenNotReplaced) {
  EXPECT_EQ(writeFileAtomically("/dev/null", "kernel"), "");
  struct stat status;
  ASSERT_EQ(::stat("/dev/null", &status), 0);
  EXPECT_TRUE(S_ISCHR(status.st_mode));
}

TEST_F(OutputFileTest, FifoIsWrittenNotReplaced) {
  std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = read(fifo); });
  EXPECT_EQ(writeFileAtomically(fifo, "through the pipe"), "");
  reader.join();
  EXPECT_EQ(got, "through the pipe");
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST_F(OutputFileTest, SymbolicLinkIsWrittenThrough) {
  write(dir + "/target", "old");
  fs::create_symlink("target", dir + "/link");
  EXPECT_EQ(writeFileAtomically(dir + "/link", "new"), "");
  EXPECT_TRUE(fs::is_symlink(dir + "/link"));
  EXPECT_EQ(read(dir + "/target"), "new");
  EXPECT_EQ(names(), (std::vector<std::string>{"link", "target"}));
}

TEST_F(OutputFileTest, LinkToNothingIsRefused) {
  fs::create_symlink("missing", dir + "/link");
  EXPECT_NE(writeFileAtomically(dir + "/link", "x").find("link to nothing"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(dir + "/missing"));
}

TEST_F(OutputFileTest, FolderIsRefused) {
  fs::create_directory(dir + "/out.cu");
  EXPECT_NE(writeFileAtomically(dir + "/out.cu", "x").find("it is a folder"),
            std::string::npos);
  EXPECT_EQ(names(), std::vector<std::string>{"out.cu"});
}

TEST_F(OutputFileTest, ReplacedFileKeepsItsMode) {
  write(dir + "/out.cu", "old");
  fs::permissions(dir + "/out.cu", fs::perms::owner_read |
                                       fs::perms::owner_write |
                                       fs::perms::group_read);
  EXPECT_EQ(writeFileAtomically(dir + "/out.cu", "new"), "");
  EXPECT_EQ(read(dir + "/out.cu"), "new");
  EXPECT_EQ(fs::status(dir + "/out.cu").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write |
                fs::perms::group_read);
}

/// Fails the third rename of a commit.
int renames = 0;
int failThirdRename(const char *from, const char *to) {
  return ++renames == 3 ? (errno = EIO, -1) : ::rename(from, to);
}

TEST_F(OutputFileTest, ALaterFailurePutsBackEveryFile) {
  // y.npy replaced and residual_out.npy new when the rename of mean.npy
  // fails: the folder is left exactly as it was.
  write(dir + "/y.npy", "old y");
  write(dir + "/mean.npy", "old mean");
  write(dir + "/rstd.npy", "old rstd");
  renames = 0;
  {
    StagedFiles files(failThirdRename);
    for (const char *name :
         {"y.npy", "residual_out.npy", "mean.npy", "rstd.npy"})
      ASSERT_EQ(files.add(dir + "/" + name, std::string("new ") + name), "");
    EXPECT_NE(files.commit().find("mean.npy"), std::string::npos);
  }
  EXPECT_EQ(renames, 3);
  EXPECT_EQ(read(dir + "/y.npy"), "old y");
  EXPECT_EQ(read(dir + "/mean.npy"), "old mean");
  EXPECT_EQ(read(dir + "/rstd.npy"), "old rstd");
  EXPECT_EQ(names(),
            (std::vector<std::string>{"mean.npy", "rstd.npy", "y.npy"}));
}

TEST_F(OutputFileTest, AllFilesOrNone) {
  write(dir + "/y.npy", "old y");
  {
    StagedFiles files;
    ASSERT_EQ(files.add(dir + "/y.npy", "new y"), "");
    EXPECT_NE(files.add(dir + "/missing/rstd.npy", "x"), "");
  } // never committed
  EXPECT_EQ(read(dir + "/y.npy"), "old y");
  EXPECT_EQ(names(), std::vector<std::string>{"y.npy"});
  StagedFiles files;
  ASSERT_EQ(files.add(dir + "/y.npy", "new y"), "");
  ASSERT_EQ(files.add(dir + "/rstd.npy", "new rstd"), "");
  EXPECT_EQ(files.commit(), "");
  EXPECT_EQ(read(dir + "/y.npy"), "new y");
  EXPECT_EQ(names(), (std::vector<std::string>{"rstd.npy", "y.npy"}));
}

} // namespace
