//===- SpecReader.cpp - Fill a Spec from a parsed TOML document -----------===//
//
// Walks the document against SpecSchema. Errors point at the offending value
// (wrong type, bad value) or key (unknown key), and quote values the way the
// user spelled them by slicing the source text with TOML++'s positions.
//
//===----------------------------------------------------------------------===//
#include "SpecReader.h"

#include "SpecSchema.h"
#include "normc/Abi/ReservedNames.h"
#include "normc/Dsl/NearestKey.h"

#include <cstdio>
#include <optional>
#include <type_traits>

namespace normc::dsl::detail {

static constexpr size_t kMaxNameLength = 64;

static std::string_view typeName(toml::node_type t) {
  switch (t) {
  case toml::node_type::table:
    return "table";
  case toml::node_type::array:
    return "array";
  case toml::node_type::string:
    return "string";
  case toml::node_type::integer:
    return "integer";
  case toml::node_type::floating_point:
    return "float";
  case toml::node_type::boolean:
    return "boolean";
  case toml::node_type::date:
    return "date";
  case toml::node_type::time:
    return "time";
  case toml::node_type::date_time:
    return "date-time";
  case toml::node_type::none:
    break;
  }
  return "nothing";
}

static const TableSchema *findTable(std::string_view name) {
  for (const TableSchema &t : specTables())
    if (t.name == name)
      return &t;
  return nullptr;
}

static const KeySchema *findKey(const TableSchema &table,
                                std::string_view name) {
  for (const KeySchema &k : table.keys)
    if (k.name == name)
      return &k;
  return nullptr;
}

static std::string quoted(std::string_view s) {
  return "'" + std::string(s) + "'";
}

namespace {

class Reader {
public:
  Reader(std::string_view text, Spec &spec, std::vector<Diagnostic> &diags)
      : text(text), spec(spec), diags(diags) {
    // TOML++ skips a UTF-8 byte order mark without counting it as a column.
    const std::string_view bom = "\xEF\xBB\xBF";
    lineStarts.push_back(text.substr(0, bom.size()) == bom ? bom.size() : 0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n')
        lineStarts.push_back(i + 1);
  }

  void readRoot(const toml::table &root) {
    const SourceLoc fileStart{spec.file, 1, 1};
    if (!root.contains("name"))
      error(fileStart, "missing required key 'name'");
    for (auto &&[key, node] : root) {
      if (key.str() == "name")
        readName(node);
      else if (const TableSchema *table = findTable(key.str()))
        readTable(*table, node);
      else
        reportUnknown(key, node, nullptr);
    }
    for (const TableSchema &table : specTables())
      if (!root.contains(table.name))
        reportMissingKeys(table, nullptr, fileStart);
  }

private:
  SourceLoc locOf(const toml::source_position &p) const {
    return {spec.file, p.line, p.column};
  }
  SourceLoc locOf(const toml::node &n) const { return locOf(n.source().begin); }

  void error(const SourceLoc &loc, std::string message) {
    diags.push_back({Severity::Error, loc, std::move(message)});
  }

  void typeError(std::string_view key, std::string_view expected,
                 const toml::node &n) {
    error(locOf(n), quoted(key) + " must be " + std::string(expected) +
                        ", got " + std::string(typeName(n.type())));
  }

  /// Byte offset of a TOML++ position; TOML++ counts columns in code points.
  std::optional<size_t> offsetOf(const toml::source_position &p) const {
    if (p.line == 0 || p.line > lineStarts.size())
      return std::nullopt;
    size_t i = lineStarts[p.line - 1];
    for (unsigned col = 1; col < p.column && i < text.size(); ++col) {
      ++i;
      while (i < text.size() &&
             (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80)
        ++i;
    }
    return i;
  }

  /// The value as written in the file, e.g. "1.5e0" rather than "1.5".
  std::string spelling(const toml::node &n) const {
    std::optional<size_t> begin = offsetOf(n.source().begin);
    std::optional<size_t> end = offsetOf(n.source().end);
    if (begin && end && *begin < *end)
      return std::string(text.substr(*begin, *end - *begin));
    if (const auto *s = n.as_string())
      return '"' + s->get() + '"';
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g", n.value<double>().value_or(0.0));
    return buf;
  }

  void readName(const toml::node &n) {
    const auto *s = n.as_string();
    if (!s)
      return typeError("name", "a string", n);
    const std::string &name = s->get();
    if (!isCIdentifier(name))
      return error(locOf(n), "'name' must be a C identifier "
                             "([A-Za-z_][A-Za-z0-9_]*), got " +
                                 spelling(n));
    for (const std::string &symbol : normc::kernelSymbolsOf(name)) {
      std::string why =
          normc::checkEmittedName(symbol, normc::EmittedName::Kernel);
      if (!why.empty())
        return error(locOf(n), "'name' becomes the kernel symbol '" + symbol +
                                   "' and cannot be a C++ keyword or a "
                                   "reserved name, got " +
                                   spelling(n) + ": '" + symbol + "' " + why);
    }
    if (name.size() > kMaxNameLength)
      return error(locOf(n),
                   "'name' must be at most " + std::to_string(kMaxNameLength) +
                       " characters long, got " + std::to_string(name.size()));
    spec.name = {name, locOf(n)};
  }

  void readTable(const TableSchema &schema, const toml::node &n) {
    const toml::table *table = n.as_table();
    if (!table)
      return typeError(schema.name, "a table", n);
    for (auto &&[key, value] : *table) {
      const toml::node &node = value; // lambdas cannot capture bindings
      if (const KeySchema *known = findKey(schema, key.str()))
        std::visit(
            [&](const auto &kind) { readValue(kind, known->name, node); },
            known->kind);
      else
        reportUnknown(key, node, &schema);
    }
    reportMissingKeys(schema, table, locOf(n));
  }

  /// Reports the required keys of `schema` missing from `table` (nullptr:
  /// the table itself is absent) at `loc`.
  void reportMissingKeys(const TableSchema &schema, const toml::table *table,
                         const SourceLoc &loc) {
    for (const KeySchema &k : schema.keys)
      if (k.required && k.required(spec) &&
          (!table || !table->contains(k.name)))
        error(loc, "missing required key " + quoted(k.name) + " in [" +
                       std::string(schema.name) + "]");
  }

  void readValue(BoolKey field, std::string_view key, const toml::node &n) {
    const auto *b = n.as_boolean();
    if (!b)
      return typeError(key, "a boolean", n);
    spec.*field = {b->get(), locOf(n)};
  }

  void readValue(const NumberKey &k, std::string_view key,
                 const toml::node &n) {
    // TOML integers are accepted where a float is expected (fraction = 1),
    // rounded if beyond 2^53 (TOML++'s value<double>() refuses those).
    double v;
    if (const auto *i = n.as_integer())
      v = static_cast<double>(i->get());
    else if (const auto *f = n.as_floating_point())
      v = f->get();
    else
      return typeError(key, "a number", n);
    if (!k.inRange(v))
      return error(locOf(n), quoted(key) + " must be " +
                                 std::string(k.requirement) + ", got " +
                                 spelling(n));
    spec.*k.field = {v, locOf(n)};
  }

  template <typename E, typename Field>
  void readValue(const EnumKey<E, Field> &k, std::string_view key,
                 const toml::node &n) {
    const auto *s = n.as_string();
    if (!s)
      return typeError(key, "a string", n);
    std::string allowed;
    for (E e : k.allowed) {
      if (toString(e) == s->get()) {
        spec.*k.field = {e, locOf(n)};
        return;
      }
      allowed +=
          (allowed.empty() ? "\"" : ", \"") + std::string(toString(e)) + "\"";
    }
    error(locOf(n),
          quoted(key) + " must be one of " + allowed + ", got " + spelling(n));
  }

  /// Whether a key of `kind` takes a value of n's TOML type.
  static bool takesTypeOf(const KeyKind &kind, const toml::node &n) {
    return std::visit(
        [&](const auto &k) {
          using Kind = std::decay_t<decltype(k)>;
          if constexpr (std::is_same_v<Kind, BoolKey>)
            return n.is_boolean();
          else if constexpr (std::is_same_v<Kind, NumberKey>)
            return n.is_number();
          else
            return n.is_string();
        },
        kind);
  }

  /// What to tell about `key` = `value`, unknown in `current` (nullptr: the
  /// top level): where it belongs when another table has it (unless its
  /// value does not fit there and it misspells a key here: `residual =
  /// true` in [fusion] is residual_add, not [dtypes]' residual type), or
  /// else the candidate it most likely misspells.
  static std::string keyHint(std::string_view key, const toml::node &value,
                             const TableSchema *current,
                             const std::vector<std::string_view> &candidates) {
    if (current && key == "name")
      return "; it belongs at the top level";
    std::optional<std::string_view> near = nearestKey(key, candidates);
    for (const TableSchema &t : specTables())
      if (const KeySchema *there = findKey(t, key);
          there && &t != current && (!near || takesTypeOf(there->kind, value)))
        return "; it belongs in [" + std::string(t.name) + "]";
    if (near)
      return "; did you mean " + quoted(*near) + "?";
    if (auto closest = closestKey(key, candidates))
      return "; the closest known key is " + quoted(*closest);
    return "";
  }

  void reportUnknown(const toml::key &key, const toml::node &n,
                     const TableSchema *table) {
    const std::string name(key.str());
    std::vector<std::string_view> candidates;
    std::string message;
    if (table) {
      for (const KeySchema &k : table->keys)
        candidates.push_back(k.name);
      message = "unknown key " + quoted(name) + " in [" +
                std::string(table->name) + "]" +
                keyHint(name, n, table, candidates);
    } else {
      for (const TableSchema &t : specTables())
        candidates.push_back(t.name);
      if (n.is_table()) {
        message = "unknown table [" + name + "]";
        if (auto near = nearestKey(name, candidates))
          message += "; did you mean [" + std::string(*near) + "]?";
        else if (auto closest = closestKey(name, candidates))
          message +=
              "; the closest known table is [" + std::string(*closest) + "]";
      } else {
        candidates.insert(candidates.begin(), "name");
        message = "unknown key " + quoted(name) +
                  keyHint(name, n, nullptr, candidates);
      }
    }
    error(locOf(key.source().begin), message);
  }

  std::string_view text;
  Spec &spec;
  std::vector<Diagnostic> &diags;
  /// Byte offset where each line starts; lineStarts[0] is line 1.
  std::vector<size_t> lineStarts;
};

} // namespace

void readSpec(const toml::table &root, std::string_view text, Spec &spec,
              std::vector<Diagnostic> &diags) {
  Reader(text, spec, diags).readRoot(root);
}

} // namespace normc::dsl::detail
