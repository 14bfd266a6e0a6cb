//===- SpecParser.cpp - Read and validate a spec file ---------------------===//
//
// The entry points: read the file, parse TOML with TOML++, fill the Spec
// (SpecReader), check rules across keys (SpecChecks), and return every
// diagnostic in source order.
//
//===----------------------------------------------------------------------===//
#include "SpecChecks.h"
#include "SpecReader.h"
#include "normc/Abi/ReadFile.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace normc::dsl {

/// Parses TOML text, turning a syntax error into a diagnostic. TOML++
/// reports errors by exception or by result object depending on whether
/// this file is compiled with exceptions.
static std::optional<toml::table> parseToml(std::string_view text,
                                            const std::string &file,
                                            std::vector<Diagnostic> &diags) {
  auto syntaxError = [&](const toml::parse_error &e) {
    const toml::source_position &p = e.source().begin;
    diags.push_back({Severity::Error,
                     {file, p.line, p.column},
                     std::string(e.description())});
  };
#if TOML_EXCEPTIONS
  try {
    return toml::parse(text);
  } catch (const toml::parse_error &e) {
    syntaxError(e);
    return std::nullopt;
  }
#else
  toml::parse_result result = toml::parse(text);
  if (!result) {
    syntaxError(result.error());
    return std::nullopt;
  }
  return std::move(result).table();
#endif
}

/// TOML++ recurses once per level of a dotted key (a.b.c...) and of an
/// array or inline table, and overflows the stack long before its own
/// limit on values (256) where keys nest tens of thousands deep. A spec
/// nests two levels; text that nests more than this is refused first.
constexpr unsigned kMaxNesting = 32;

/// The position where `text` nests deeper than kMaxNesting, counting the
/// dots of one line and the open brackets, outside strings and comments.
static std::optional<SourceLoc> tooDeep(std::string_view text,
                                        const std::string &file) {
  unsigned line = 1, column = 0, dots = 0, brackets = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    ++column;
    if (c == '\n') {
      ++line;
      column = dots = 0;
    } else if (c == '#') {
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
    } else if (c == '"' || c == '\'') {
      // A string, on one line or, tripled, on several: skip to its end.
      size_t quote = text.compare(i, 3, std::string(3, c)) == 0 ? 3 : 1;
      size_t end = i + quote;
      while (end < text.size() && text.compare(end, quote, text, i, quote) &&
             (quote == 3 || text[end] != '\n'))
        end += c == '"' && text[end] == '\\' ? 2 : 1;
      end = std::min(end + quote, text.size());
      for (size_t j = i + 1; j < end; ++j) // keep the position right
        text[j] == '\n' ? (++line, column = 0) : ++column;
      i = end - 1;
    } else if ((c == '.' && ++dots > kMaxNesting) ||
               ((c == '[' || c == '{') && ++brackets > kMaxNesting)) {
      return SourceLoc{file, line, column};
    } else if ((c == ']' || c == '}') && brackets > 0) {
      --brackets;
    }
  }
  return std::nullopt;
}

SpecParseResult parseSpecString(std::string_view text,
                                const std::string &fileName) {
  SpecParseResult result;
  if (std::optional<SourceLoc> where = tooDeep(text, fileName)) {
    result.diagnostics.push_back({Severity::Error, *where,
                                  "keys, arrays or tables nest more than " +
                                      std::to_string(kMaxNesting) +
                                      " levels deep"});
    return result;
  }
  std::optional<toml::table> root =
      parseToml(text, fileName, result.diagnostics);
  if (!root)
    return result;

  Spec spec;
  spec.file = fileName;
  detail::readSpec(*root, text, spec, result.diagnostics);
  detail::checkSpec(spec, result.diagnostics);
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                   [](const Diagnostic &a, const Diagnostic &b) {
                     return std::make_pair(a.loc.line, a.loc.column) <
                            std::make_pair(b.loc.line, b.loc.column);
                   });
  if (!hasErrors(result.diagnostics))
    result.spec = std::move(spec);
  return result;
}

SpecParseResult parseSpecFile(const std::string &path) {
  std::string text;
  // Specs are a few hundred bytes.
  if (std::optional<std::string> reason = readFile(path, text, 1 << 20)) {
    SpecParseResult result;
    result.diagnostics.push_back(
        {Severity::Error, {path, 0, 0}, "cannot read file: " + *reason});
    return result;
  }
  return parseSpecString(text, path);
}

} // namespace normc::dsl
