//===- CacheLocationTest.cpp - Where the cache lives ----------------------===//
//
// NORMC_CACHE_DIR, else XDG_CACHE_HOME/normc, else HOME/.cache/normc; empty
// variables count as unset; without any home the disk cache is disabled.
//
//===----------------------------------------------------------------------===//

#include "CacheTestUtil.h"

#include <pwd.h>

using namespace normc::cache;
using namespace normc::cache::test;

namespace {

const char *const kVariables[] = {"NORMC_CACHE_DIR", "XDG_CACHE_HOME", "HOME"};

/// Sets the three variables for one test and restores them afterwards.
class CacheLocation : public ::testing::Test {
protected:
  void SetUp() override {
    for (const char *name : kVariables) {
      const char *value = getenv(name);
      saved.push_back(value ? std::optional<std::string>(value) : std::nullopt);
    }
  }
  void TearDown() override {
    for (size_t i = 0; i < saved.size(); ++i)
      set(kVariables[i], saved[i]);
  }

  static void set(const char *name, const std::optional<std::string> &value) {
    if (value)
      setenv(name, value->c_str(), 1);
    else
      unsetenv(name);
  }
  static void setAll(std::optional<std::string> normc,
                     std::optional<std::string> xdg,
                     std::optional<std::string> home) {
    set("NORMC_CACHE_DIR", normc);
    set("XDG_CACHE_HOME", xdg);
    set("HOME", home);
  }

  std::vector<std::optional<std::string>> saved;
};

} // namespace

TEST_F(CacheLocation, Precedence) {
  setAll("/n", "/x", "/h");
  EXPECT_EQ(defaultCacheDir(), "/n");
  setAll(std::nullopt, "/x", "/h");
  EXPECT_EQ(defaultCacheDir(), "/x/normc");
  setAll(std::nullopt, std::nullopt, "/h");
  EXPECT_EQ(defaultCacheDir(), "/h/.cache/normc");
}

TEST_F(CacheLocation, EmptyVariablesCountAsUnset) {
  setAll("", "", "/h");
  EXPECT_EQ(defaultCacheDir(), "/h/.cache/normc");
  setAll("", "/x", "");
  EXPECT_EQ(defaultCacheDir(), "/x/normc");
}

TEST_F(CacheLocation, HomeFromPasswordDatabase) {
  passwd *user = getpwuid(getuid());
  if (!user || !user->pw_dir)
    GTEST_SKIP() << "no password entry for this user";
  std::string expected = std::string(user->pw_dir) + "/.cache/normc";
  setAll(std::nullopt, std::nullopt, std::nullopt);
  EXPECT_EQ(defaultCacheDir(), expected);
}

TEST_F(CacheLocation, DiskCacheUsesTheDefault) {
  setAll("/n", "/x", "/h");
  EXPECT_EQ(DiskCache().directory(), "/n");
  EXPECT_EQ(DiskCache("/given").directory(), "/given");
}

TEST_F(CacheLocation, NoHomeDisablesTheDiskCache) {
  // A user id with no password entry, and no variables.
  const uid_t stranger = 54321;
  if (getpwuid(stranger))
    GTEST_SKIP() << "uid " << stranger << " has a password entry";
  setAll(std::nullopt, std::nullopt, std::nullopt);
  int status = runInChild([&] {
    if (geteuid() == 0 && setuid(stranger) != 0)
      return kChildSkipped;
    if (geteuid() != stranger)
      return kChildSkipped;
    if (!defaultCacheDir().empty())
      return 1;
    DiskCache cache;
    std::string key = sha256Hex("k");
    if (cache.put(key, "x") || cache.get(key) || !cache.pathFor(key).empty())
      return 2;
    return 0;
  });
  if (status == kChildSkipped)
    GTEST_SKIP() << "cannot run as a user without a password entry";
  EXPECT_EQ(status, 0);
}
