//===- NpyFuzzTest.cpp - Corrupted and truncated files never crash --------===//
//
// Valid files cut at every length must be rejected with NpyError (every
// strict prefix lacks data); with random bytes changed (mostly in the
// header, where the parsing is) each read either succeeds or throws
// NpyError, and never anything else.
//
//===----------------------------------------------------------------------===//
#include "NpyTestUtil.h"

#include <algorithm>
#include <random>
#include <vector>

using namespace normc::npy;
using namespace normc::npy::test;

namespace {

/// Reads the file; fails the test unless it succeeds or throws NpyError.
void readSafely(const std::string &path, const std::string &bytes) {
  try {
    Array a = read(path);
    size_t count = 1;
    for (int64_t dim : a.shape)
      count *= static_cast<size_t>(dim);
    EXPECT_EQ(a.data.size(), count);
  } catch (const NpyError &) {
  } catch (const std::exception &e) {
    ADD_FAILURE() << "unexpected exception " << e.what() << " for "
                  << ::testing::PrintToString(bytes);
  }
}

/// Reads the file; fails the test unless it throws NpyError.
void rejected(const std::string &path, const std::string &bytes) {
  try {
    read(path);
    ADD_FAILURE() << "read a truncated file: "
                  << ::testing::PrintToString(bytes);
  } catch (const NpyError &) {
  } catch (const std::exception &e) {
    ADD_FAILURE() << "unexpected exception " << e.what() << " for "
                  << ::testing::PrintToString(bytes);
  }
}

std::vector<std::string> seeds() {
  const float floats[6] = {1, -2, 3.5f, 0, 1e-3f, 7};
  return {
      encodeFloat32({2, 3}, floats),
      encodeFloat32({}, floats),
      npyFile(header("<f8", "(2,)"), littleEndian<double>({0.5, -1})),
      npyFile(header("<f2", "(3, 1)"),
              littleEndian<uint16_t>({0x3c00, 0x7c00, 0x8001}), 2),
      npyFile("{'descr': [('a', '<f4'), ('b', ('<f8', (2,)))], "
              "'fortran_order': False, 'shape': (1,), }\n",
              std::string(20, '\0'), 3),
  };
}

} // namespace

TEST_F(NpyTest, FuzzTruncations) {
  for (const std::string &seed : seeds())
    for (size_t n = 0; n < seed.size(); ++n)
      rejected(write("t.npy", seed.substr(0, n)), seed.substr(0, n));
}

TEST_F(NpyTest, FuzzCorruptions) {
  std::mt19937 rng(20240607);
  // Half the bytes a corruption writes are characters of the header syntax,
  // so the parser meets every kind of wrong token.
  const std::string interesting = "{}()[],:'\"-+0123456789LTFN \n\\\x93\xff";
  std::vector<std::string> all = seeds();
  for (int i = 0; i < 3000; ++i) {
    std::string bytes = all[i % all.size()];
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !bytes.empty(); ++e) {
      // Mostly the header; sometimes the magic, version and length bytes.
      size_t span = std::min<size_t>(bytes.size(), rng() % 4 ? 140 : 12);
      size_t at = rng() % span;
      char c = rng() % 2 ? interesting[rng() % interesting.size()]
                         : static_cast<char>(rng() & 0xff);
      switch (rng() % 3) {
      case 0:
        bytes[at] = c;
        break;
      case 1:
        bytes.insert(bytes.begin() + at, c);
        break;
      default:
        bytes.erase(at, 1);
        break;
      }
    }
    if (rng() % 4 == 0)
      bytes.resize(rng() % (bytes.size() + 1));
    readSafely(write("c.npy", bytes), bytes);
  }
}
