//===- ElementType.cpp - The element types of kernel arguments ------------===//
#include "normc/Abi/ElementType.h"

#include <cmath>
#include <iterator>

using namespace normc;

namespace {
using Encoding = ElementType::Encoding;
using Specials = ElementType::Specials;

constexpr ElementType kTypes[] = {
    {"f64", 64, Encoding::Float, 11, 52, Specials::Ieee, "double", "float64",
     "f64"},
    {"f32", 32, Encoding::Float, 8, 23, Specials::Ieee, "float", "float32",
     "f32"},
    {"f16", 16, Encoding::Float, 5, 10, Specials::Ieee, "__half", "float16",
     "f16"},
    {"bf16", 16, Encoding::Float, 8, 7, Specials::Ieee, "__nv_bfloat16",
     "bfloat16", "bf16"},
    {"f8e4m3", 8, Encoding::Float, 4, 3, Specials::NanOnly, "__nv_fp8_e4m3",
     "float8_e4m3fn", "f8E4M3FN"},
    {"f8e5m2", 8, Encoding::Float, 5, 2, Specials::Ieee, "__nv_fp8_e5m2",
     "float8_e5m2", "f8E5M2"},
    {"f8e8m0", 8, Encoding::Exponent, 8, 0, Specials::NanOnly, "__nv_fp8_e8m0",
     "float8_e8m0fnu", "f8E8M0FNU"},
    {"f4e2m1", 4, Encoding::Float, 2, 1, Specials::None, "__nv_fp4_e2m1",
     "float4_e2m1fn_x2", "f4E2M1FN"},
    {"i8", 8, Encoding::Integer, 0, 0, Specials::None, "signed char", "int8",
     "i8"},
};
} // namespace

double ElementType::largestFinite() const {
  switch (encoding) {
  case Encoding::Integer:
    return std::ldexp(1.0, int(bits) - 1) - 1;
  case Encoding::Exponent: // the all-ones code is NaN
    return std::ldexp(1.0, (1 << exponentBits) - 2 -
                               ((1 << (exponentBits - 1)) - 1));
  case Encoding::Float:
    break;
  }
  int bias = (1 << (exponentBits - 1)) - 1;
  int topExponent = (1 << exponentBits) - 1 - bias;
  double ulp = std::ldexp(1.0, -mantissaBits);
  switch (specials) {
  case Specials::Ieee: // the top exponent is not finite
    return (2 - ulp) * std::ldexp(1.0, topExponent - 1);
  case Specials::NanOnly: // the top code is NaN
    return (2 - 2 * ulp) * std::ldexp(1.0, topExponent);
  case Specials::None:
    return (2 - ulp) * std::ldexp(1.0, topExponent);
  }
  return 0;
}

double ElementType::smallestPositive() const {
  if (encoding == Encoding::Integer) // no exponent field to take a bias of
    return 1;
  int bias = (1 << (exponentBits - 1)) - 1;
  if (encoding == Encoding::Exponent)
    return std::ldexp(1.0, -bias);
  return std::ldexp(1.0, 1 - bias - mantissaBits);
}

const ElementType *ElementTypes::begin() const { return std::begin(kTypes); }
const ElementType *ElementTypes::end() const { return std::end(kTypes); }

std::optional<ElementType> normc::elementTypeNamed(std::string_view name) {
  for (const ElementType &type : kTypes)
    if (type.name == name)
      return type;
  return std::nullopt;
}
