//===- SpecSchema.h - The keys a spec may contain -------------------------===//
//
// One table-driven description of the spec language (docs/spec.md): each
// TOML table, its keys, the Spec field each key fills, and the values it
// accepts. The reader walks this instead of hand-writing a branch per key.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_DSL_LIB_SPECSCHEMA_H
#define NORMC_DSL_LIB_SPECSCHEMA_H

#include "normc/Dsl/Spec.h"

#include <string_view>
#include <variant>
#include <vector>

namespace normc::dsl::detail {

using BoolKey = Located<bool> Spec::*;

/// A number (TOML integer or float) with a range check; errors read
/// "'KEY' must be <requirement>, got VALUE".
struct NumberKey {
  Located<double> Spec::*field;
  std::string_view requirement;
  bool (*inRange)(double);
};

/// A string naming one of `allowed` (spelled by toString), for a field of
/// type E or, where absence means a default taken from another key,
/// std::optional<E>.
template <typename E, typename Field = E> struct EnumKey {
  Located<Field> Spec::*field;
  std::vector<E> allowed;
};

using KeyKind =
    std::variant<BoolKey, NumberKey, EnumKey<Method>, EnumKey<Variance>,
                 EnumKey<EpsilonPlacement>, EnumKey<NormalizedRounding>,
                 EnumKey<DType>, EnumKey<DType, std::optional<DType>>,
                 EnumKey<QuantizeScale>, EnumKey<Gate>,
                 EnumKey<GateActivation>>;

struct KeySchema {
  std::string_view name;
  KeyKind kind;
  /// Whether a spec must give the key, given the keys read before the
  /// table ended (null: never).
  bool (*required)(const Spec &) = nullptr;
};

struct TableSchema {
  std::string_view name;
  std::vector<KeySchema> keys;
};

/// The tables of a spec in the order docs/spec.md lists them. The top-level
/// key `name` is not among them.
const std::vector<TableSchema> &specTables();

} // namespace normc::dsl::detail

#endif // NORMC_DSL_LIB_SPECSCHEMA_H
