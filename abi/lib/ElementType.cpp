//===- ElementType.cpp - The element types of kernel arguments ------------===//
#include "normc/Abi/ElementType.h"

#include <cmath>

using namespace normc;

using Encoding = ElementType::Encoding;
using Specials = ElementType::Specials;

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

std::string
normc::elementTypesWithRole(unsigned roles,
                            std::string_view ElementType::*spelling) {
  std::vector<std::string_view> names;
  for (const ElementType &type : allElementTypes())
    if (type.hasRole(roles))
      names.push_back(type.*spelling);
  return listForMessage(names);
}

std::string normc::listForMessage(const std::vector<std::string_view> &names) {
  std::string list;
  for (size_t i = 0; i < names.size(); ++i)
    list.append(i == 0                  ? ""
                : i + 1 == names.size() ? " or "
                                        : ", ")
        .append(names[i]);
  return list;
}
