//===- CoveringDesign.cpp - A pairwise covering design under constraints --===//
#include "CoveringDesign.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <tuple>

using namespace normc::test;

namespace {

/// (factor f, level a, factor g, level b) with f < g.
using Pair = std::tuple<unsigned, unsigned, unsigned, unsigned>;

std::string describe(const std::vector<Factor> &factors, const Pair &p) {
  auto [f, a, g, b] = p;
  return factors[f].name + "=" + factors[f].levels[a] + ", " + factors[g].name +
         "=" + factors[g].levels[b];
}

std::set<Pair> allPairs(const std::vector<Factor> &factors) {
  std::set<Pair> pairs;
  for (unsigned f = 0; f < factors.size(); ++f)
    for (unsigned g = f + 1; g < factors.size(); ++g)
      for (unsigned a = 0; a < factors[f].levels.size(); ++a)
        for (unsigned b = 0; b < factors[g].levels.size(); ++b)
          pairs.insert({f, a, g, b});
  return pairs;
}

/// How many of `open` the row holds among its first factors `set`.
unsigned newlyCovered(const DesignRow &row, const std::vector<bool> &set,
                      const std::set<Pair> &open) {
  unsigned count = 0;
  for (unsigned f = 0; f < row.size(); ++f)
    for (unsigned g = f + 1; g < row.size(); ++g)
      if (set[f] && set[g])
        count += open.count({f, row[f], g, row[g]});
  return count;
}

void cover(const DesignRow &row, std::set<Pair> &open) {
  for (unsigned f = 0; f < row.size(); ++f)
    for (unsigned g = f + 1; g < row.size(); ++g)
      open.erase({f, row[f], g, row[g]});
}

} // namespace

CoveringDesign
normc::test::coveringDesign(const std::vector<Factor> &factors,
                            const std::function<bool(const DesignRow &)> &valid,
                            uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::set<Pair> open = allPairs(factors);
  CoveringDesign design;
  const unsigned n = factors.size();
  while (!open.empty()) {
    Pair first = *open.begin();
    auto [f0, a0, g0, b0] = first;
    DesignRow best;
    unsigned bestCount = 0;
    // Greedy candidates, then purely random completions of the pair, which
    // find rows that the greedy choice steers away from.
    for (int attempt = 0; attempt < 2064 && (best.empty() || attempt < 48);
         ++attempt) {
      DesignRow row(n, 0);
      std::vector<bool> set(n, false);
      row[f0] = a0, row[g0] = b0;
      set[f0] = set[g0] = true;
      std::vector<unsigned> order(n);
      std::iota(order.begin(), order.end(), 0u);
      std::shuffle(order.begin(), order.end(), rng);
      for (unsigned f : order) {
        if (set[f])
          continue;
        set[f] = true;
        unsigned levels = factors[f].levels.size();
        if (attempt >= 48) {
          row[f] = rng() % levels;
          continue;
        }
        unsigned start = rng() % levels, bestLevel = start, most = 0;
        for (unsigned i = 0; i < levels; ++i) {
          row[f] = (start + i) % levels;
          unsigned count = newlyCovered(row, set, open);
          if (count > most)
            most = count, bestLevel = row[f];
        }
        row[f] = bestLevel;
      }
      if (!valid(row))
        continue;
      unsigned count = newlyCovered(row, std::vector<bool>(n, true), open);
      if (count > bestCount)
        bestCount = count, best = row;
    }
    if (best.empty()) {
      design.impossiblePairs.push_back(describe(factors, first));
      open.erase(first);
      continue;
    }
    cover(best, open);
    design.rows.push_back(best);
  }
  return design;
}
