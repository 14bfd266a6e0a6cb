//===- ElementType.cpp - The storage element types a kernel argument has --===//
#include "normc/Abi/ElementType.h"

using namespace normc;

std::optional<ElementType> normc::elementTypeNamed(std::string_view name) {
  static constexpr ElementType kTypes[] = {
      {"f64", 64},  {"f32", 32},   {"f16", 16},
      {"bf16", 16}, {"f8e4m3", 8}, {"f8e5m2", 8},
  };
  for (const ElementType &type : kTypes)
    if (type.name == name)
      return type;
  return std::nullopt;
}
