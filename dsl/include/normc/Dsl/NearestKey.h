//===- NearestKey.h - "Did you mean ...?" suggestions ---------------------===//
//
// Picks the known spelling a user most likely meant when they typed an
// unknown one (a key, a table name, a command-line value).
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_DSL_NEARESTKEY_H
#define NORMC_DSL_NEARESTKEY_H

#include <optional>
#include <string_view>
#include <vector>

namespace normc::dsl {

/// Optimal string alignment distance: inserting, deleting or replacing a
/// character, or swapping two adjacent ones, each costs 1.
unsigned editDistance(std::string_view a, std::string_view b);

/// The candidate `word` most likely misspells, ignoring case: the closest of
/// those within max(1, word.size() / 4) edits of `word` or that start with
/// `word` (3 characters or more). Ties go to the earlier candidate; nullopt
/// when no candidate qualifies.
std::optional<std::string_view>
nearestKey(std::string_view word,
           const std::vector<std::string_view> &candidates);

/// The candidate at the smallest edit distance from `word` (case ignored),
/// however far; nullopt only when there are no candidates.
std::optional<std::string_view>
closestKey(std::string_view word,
           const std::vector<std::string_view> &candidates);

} // namespace normc::dsl

#endif // NORMC_DSL_NEARESTKEY_H
