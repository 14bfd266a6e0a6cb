//===- NearestKey.cpp - "Did you mean ...?" suggestions -------------------===//
//
// Edit distances over short identifiers; the quadratic table is fine for the
// handful of spec keys.
//
//===----------------------------------------------------------------------===//
#include "normc/Dsl/NearestKey.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace normc::dsl {

unsigned editDistance(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<unsigned>> d(n + 1, std::vector<unsigned>(m + 1));
  for (size_t i = 0; i <= n; ++i)
    d[i][0] = i;
  for (size_t j = 0; j <= m; ++j)
    d[0][j] = j;
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      unsigned replace = d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, replace});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

static std::string lower(std::string_view s) {
  std::string out(s);
  for (char &c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::optional<std::string_view>
nearestKey(std::string_view word,
           const std::vector<std::string_view> &candidates) {
  const std::string w = lower(word);
  const unsigned limit = std::max<unsigned>(1, w.size() / 4);
  std::optional<std::string_view> best;
  unsigned bestDistance = 0;
  for (std::string_view candidate : candidates) {
    const std::string c = lower(candidate);
    unsigned distance = editDistance(w, c);
    bool isPrefix = w.size() >= 3 && c.compare(0, w.size(), w) == 0;
    if (distance > limit && !isPrefix)
      continue;
    if (!best || distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

std::optional<std::string_view>
closestKey(std::string_view word,
           const std::vector<std::string_view> &candidates) {
  const std::string w = lower(word);
  std::optional<std::string_view> best;
  unsigned bestDistance = 0;
  for (std::string_view candidate : candidates) {
    unsigned distance = editDistance(w, lower(candidate));
    if (!best || distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

} // namespace normc::dsl
