//===- ReservedNames.cpp - Names an emitted kernel may use ----------------===//
#include "normc/Abi/ReservedNames.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>

namespace {
/// C++ keywords (and main).
const char *const kKeywords[] = {
    // C++ keywords.
    "alignas",       "alignof",     "and",
    "and_eq",        "asm",         "auto",
    "bitand",        "bitor",       "bool",
    "break",         "case",        "catch",
    "char",          "char16_t",    "char32_t",
    "char8_t",       "class",       "co_await",
    "co_return",     "co_yield",    "compl",
    "concept",       "const",       "const_cast",
    "consteval",     "constexpr",   "constinit",
    "continue",      "decltype",    "default",
    "delete",        "do",          "double",
    "dynamic_cast",  "else",        "enum",
    "explicit",      "export",      "extern",
    "false",         "float",       "for",
    "friend",        "goto",        "if",
    "inline",        "int",         "long",
    "mutable",       "namespace",   "new",
    "noexcept",      "not",         "not_eq",
    "nullptr",       "operator",    "or",
    "or_eq",         "private",     "protected",
    "public",        "register",    "reinterpret_cast",
    "requires",      "return",      "short",
    "signed",        "sizeof",      "static",
    "static_assert", "static_cast", "struct",
    "switch",        "template",    "this",
    "thread_local",  "throw",       "true",
    "try",           "typedef",     "typeid",
    "typename",      "union",       "unsigned",
    "using",         "virtual",     "void",
    "volatile",      "wchar_t",     "while",
    "xor",           "xor_eq",      "main"};

/// What NVRTC's environment and the CUDA headers the emitted source includes
/// declare at global scope, where a kernel of that name does not compile.
/// Sorted (strcmp order).
const char *const kCudaDeclared[] = {
#include "CudaDeclaredNames.inc"
};

/// Locals and parameters of every emitted kernel.
const char *const kLocals[] = {"d",
                               "rows",
                               "row",
                               "row_group",
                               "limit",
                               "pitch",
                               "i",
                               "c",
                               "e",
                               "t",
                               "w",
                               "f",
                               "b",
                               "g",
                               "r",
                               "lane_in_row",
                               "row_in_block",
                               "reduce_scratch",
                               "shared_rows",
                               "groups",
                               "slice_begin",
                               "slice_end",
                               "cluster_slot"};

bool isDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) {
    return std::isdigit(static_cast<unsigned char>(ch));
  });
}

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}
} // namespace

std::vector<std::string> normc::kernelSymbolsOf(std::string_view name) {
  std::string backward = std::string(name) + std::string(kBackwardSuffix);
  return {std::string(name), backward, backward + std::string(kFinishSuffix)};
}

bool normc::isCudaDeclared(std::string_view name) {
  auto less = [](const char *a, std::string_view b) {
    return std::string_view(a) < b;
  };
  const char *const *end = std::end(kCudaDeclared);
  const char *const *it =
      std::lower_bound(std::begin(kCudaDeclared), end, name, less);
  return it != end && std::string_view(*it) == name;
}

bool normc::isSortedCudaDeclared() {
  return std::is_sorted(
      std::begin(kCudaDeclared), std::end(kCudaDeclared),
      [](const char *a, const char *b) { return std::strcmp(a, b) < 0; });
}

bool normc::isCIdentifier(std::string_view name) {
  auto word = [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
  };
  return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
         std::all_of(name.begin(), name.end(), word);
}

std::string normc::checkEmittedName(std::string_view name, EmittedName kind) {
  if (!isCIdentifier(name))
    return "must be a C identifier ([A-Za-z_][A-Za-z0-9_]*)";
  for (const char *word : kKeywords)
    if (name == word)
      return "is a C++ keyword";
  if (isCudaDeclared(name))
    return "is declared by CUDA (NVRTC's built-ins or the CUDA headers the "
           "emitted source includes)";
  if (startsWith(name, "__") || startsWith(name, "normc_") ||
      startsWith(name, "NORMC_") ||
      (name.size() > 1 && name[0] == '_' && std::isupper(name[1])))
    return "is reserved (names starting with __, _X, normc_ or NORMC_)";
  if (kind == EmittedName::Kernel)
    return "";
  // Macros are upper case, bar a few of the C library's (which CpuCuda.h
  // undefines): a lower-case parameter cannot be expanded away.
  if (!std::all_of(name.begin(), name.end(), [](char ch) {
        return std::islower(static_cast<unsigned char>(ch)) ||
               std::isdigit(static_cast<unsigned char>(ch)) || ch == '_';
      }))
    return "must be lower case ([a-z0-9_]), as the buffers the runtime binds "
           "are";
  for (const char *word : kLocals)
    if (name == word)
      return "is a local of every emitted kernel";
  // Locals the emitter makes: c0, s1, v2, a3, region_0, NAME_row, NAME_vec,
  // NAME_stride.
  if ((name.size() > 1 &&
       std::string_view("csva").find(name[0]) != std::string_view::npos &&
       isDigits(name.substr(1))) ||
      startsWith(name, "region_") || endsWith(name, "_row") ||
      endsWith(name, "_vec") || endsWith(name, "_stride"))
    return "has the form of a name the emitter generates";
  return "";
}
