//===- CoveringDesign.h - A pairwise covering design under constraints ----===//
//
// Rows of levels, one per factor, such that every pair of levels of two
// factors that some valid row can hold is held by at least one row (a
// strength-2 covering array). Built greedily, as AETG does: each new row
// starts from the first pair not yet covered and picks the remaining levels
// that cover the most new pairs; a row must pass `valid`. Seeded, so the
// same factors give the same design.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_TESTS_NUMERICS_COVERINGDESIGN_H
#define NORMC_TESTS_NUMERICS_COVERINGDESIGN_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace normc::test {

struct Factor {
  std::string name;
  std::vector<std::string> levels;
};

/// One level index per factor.
using DesignRow = std::vector<unsigned>;

struct CoveringDesign {
  std::vector<DesignRow> rows;
  /// Pairs no valid row can hold ("factor=level, factor=level").
  std::vector<std::string> impossiblePairs;
};

CoveringDesign
coveringDesign(const std::vector<Factor> &factors,
               const std::function<bool(const DesignRow &)> &valid,
               uint64_t seed);

} // namespace normc::test

#endif // NORMC_TESTS_NUMERICS_COVERINGDESIGN_H
