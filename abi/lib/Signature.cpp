//===- Signature.cpp - The arguments a caller passes to a program ---------===//
#include "normc/Abi/Signature.h"
#include "normc/Abi/ElementType.h"

#include <algorithm>
#include <climits>
#include <cstdint>

using namespace normc;

std::vector<int64_t> Argument::shape(int64_t rows, int64_t d) const {
  std::vector<int64_t> out;
  for (Dim dim : dims)
    out.push_back(dim == Dim::Rows     ? rows
                  : dim == Dim::D      ? d
                  : dim == Dim::Groups ? (d + groupSize - 1) / groupSize
                                       : 1);
  return out;
}

/// a * b + c, or INT64_MAX where that overflows: a size no one can
/// allocate, which every host refuses.
static int64_t saturated(int64_t a, int64_t b, int64_t c = 0) {
  int64_t out;
  if (__builtin_mul_overflow(a, b, &out) ||
      __builtin_add_overflow(out, c, &out))
    return INT64_MAX;
  return out;
}

int64_t Argument::elements(int64_t rows, int64_t d, int64_t rowStride) const {
  if (strided && rowStride > d)
    return rows ? saturated(rows - 1, rowStride, d) : 0;
  int64_t count = 1;
  for (int64_t n : shape(rows, d))
    count = saturated(count, n);
  return count;
}

int64_t Argument::bytes(int64_t rows, int64_t d, int64_t rowStride) const {
  std::optional<ElementType> type = elementTypeNamed(elementType);
  int64_t count = elements(rows, d, rowStride);
  if (!type)
    return 0;
  return count > INT64_MAX / type->bits ? INT64_MAX : type->bytesFor(count);
}

Signature normc::signatureOf(const std::vector<KernelLaunchInfo> &sequence) {
  using Kind = KernelParam::Kind;
  Signature out;
  for (const KernelLaunchInfo &info : sequence)
    for (const KernelParam &p : info.params) {
      if (!p.isBuffer() || p.kind == Kind::Partials)
        continue;
      auto seen = std::find_if(out.begin(), out.end(), [&](const Argument &a) {
        return a.name == p.name;
      });
      if (seen != out.end()) {
        seen->written |= p.written;
        continue;
      }
      Argument a;
      a.name = p.name;
      a.elementType = p.elementType;
      a.written = p.written;
      using Dim = Argument::Dim;
      switch (p.kind) {
      case Kind::Rows:
        a.dims = {Dim::Rows, Dim::D};
        break;
      case Kind::Features:
        a.dims = {Dim::D};
        break;
      case Kind::Stats:
        a.dims = {Dim::Rows};
        break;
      case Kind::Groups:
        a.dims = {Dim::Rows, Dim::Groups};
        a.groupSize = info.groupSize;
        break;
      default: // Scalar
        a.dims = {Dim::One};
        break;
      }
      out.push_back(std::move(a));
    }
  for (const KernelLaunchInfo &info : sequence)
    for (const KernelParam &p : info.params)
      if (p.kind == Kind::RowStride)
        for (Argument &a : out)
          if (p.name == a.name + "_stride")
            a.strided = true;
  return out;
}

const Argument *normc::findArgument(const Signature &signature,
                                    const std::string &name) {
  auto it = std::find_if(signature.begin(), signature.end(),
                         [&](const Argument &a) { return a.name == name; });
  return it == signature.end() ? nullptr : &*it;
}

std::string normc::argumentNames(const Signature &signature, bool written) {
  std::string out;
  for (const Argument &a : signature)
    if (a.written == written)
      out += (out.empty() ? "" : ", ") + a.name;
  return out.empty() ? "none" : out;
}

Mismatch normc::mismatchOf(const Signature &signature,
                           const std::set<std::string> &given) {
  Mismatch m;
  for (const std::string &name : given)
    if (!findArgument(signature, name)) {
      if (m.extra.empty())
        m.extra = name;
      ++m.count;
    }
  for (const Argument &a : signature)
    if (!given.count(a.name)) {
      if (!m.missing)
        m.missing = &a;
      ++m.count;
    }
  return m;
}

std::string Mismatch::str() const {
  if (!extra.empty())
    return "takes no argument '" + extra + "'";
  if (missing)
    return "needs '" + missing->name + "' " + shapeText(*missing) + " " +
           missing->elementType;
  return "";
}

size_t normc::nearestSignature(const std::vector<const Signature *> &signatures,
                               const std::set<std::string> &given) {
  size_t best = 0;
  for (size_t i = 1; i < signatures.size(); ++i) {
    Mismatch m = mismatchOf(*signatures[i], given);
    Mismatch b = mismatchOf(*signatures[best], given);
    if (m.count < b.count ||
        (m.count == b.count && m.extra.empty() && !b.extra.empty()))
      best = i;
  }
  return best;
}

std::string normc::shapeText(const Argument &argument) {
  std::string out = "[";
  for (size_t i = 0; i < argument.dims.size(); ++i) {
    Argument::Dim dim = argument.dims[i];
    out += i ? ", " : "";
    out += dim == Argument::Dim::Rows ? "rows"
           : dim == Argument::Dim::D  ? "d"
           : dim == Argument::Dim::Groups
               ? "ceil(d / " + std::to_string(argument.groupSize) + ")"
               : "1";
  }
  return out + "]";
}
