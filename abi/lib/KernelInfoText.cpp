//===- KernelInfoText.cpp - KernelLaunchInfo as one line of text ----------===//
#include "normc/Abi/ElementType.h"
#include "normc/Abi/KernelInfo.h"
#include "normc/Abi/Number.h"
#include "normc/Abi/Schedule.h"

#include <algorithm>
#include <sstream>

using namespace normc;

namespace {
const char *kindName(KernelParam::Kind kind) {
  switch (kind) {
  case KernelParam::Kind::Rows:
    return "rows";
  case KernelParam::Kind::RowStride:
    return "stride";
  case KernelParam::Kind::Features:
    return "features";
  case KernelParam::Kind::Partials:
    return "partials";
  case KernelParam::Kind::Stats:
    return "stats";
  case KernelParam::Kind::Scalar:
    return "scalar";
  case KernelParam::Kind::Groups:
    return "groups";
  case KernelParam::Kind::RowCount:
    return "rowcount";
  case KernelParam::Kind::D:
    return "d";
  }
  return "";
}

std::optional<KernelParam::Kind> kindFrom(const std::string &name) {
  using Kind = KernelParam::Kind;
  for (Kind k :
       {Kind::Rows, Kind::RowStride, Kind::Features, Kind::Stats,
        Kind::Partials, Kind::Scalar, Kind::Groups, Kind::RowCount, Kind::D})
    if (name == kindName(k))
      return k;
  return std::nullopt;
}

/// A C identifier: what a kernel or parameter name must be.
bool isIdentifier(const std::string &name) {
  auto alpha = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  return !name.empty() && alpha(name[0]) &&
         std::all_of(name.begin(), name.end(), [&](char c) {
           return alpha(c) || (c >= '0' && c <= '9');
         });
}

/// Every field between separators, empty ones included ("a," is "a", "").
std::vector<std::string> split(const std::string &text, char sep) {
  std::vector<std::string> parts(1);
  for (char c : text) {
    if (c == sep)
      parts.emplace_back();
    else
      parts.back().push_back(c);
  }
  return parts;
}
} // namespace

std::string normc::toText(const KernelLaunchInfo &info) {
  std::ostringstream os;
  os << "name=" << info.name
     << " d=" << (info.d ? std::to_string(*info.d) : "runtime")
     << " block=" << info.blockSize << " rows_per_block=" << info.rowsPerBlock
     << " vector_width=" << info.vectorWidth
     << " launch_order=" << info.launchOrder << " shared=" << info.shared.str();
  if (info.clusterSize > 1)
    os << " cluster=" << info.clusterSize;
  if (info.groupSize)
    os << " group=" << info.groupSize;
  if (info.partialRows)
    os << " partial_rows=" << info.partialRows;
  os << " params=";
  for (size_t i = 0; i < info.params.size(); ++i) {
    const KernelParam &p = info.params[i];
    os << (i ? "," : "") << p.name << ":" << kindName(p.kind) << ":"
       << p.elementType << ":" << (p.written ? "w" : "r");
  }
  return os.str();
}

std::optional<KernelLaunchInfo>
normc::kernelInfoFromText(const std::string &text) {
  KernelLaunchInfo info;
  // Every number whole and every element type known: "64abc" is no number.
  auto number = [](const std::string &text, int64_t &out) {
    std::optional<int64_t> n = parseWholeNumber(text);
    if (n)
      out = *n;
    return n.has_value();
  };
  for (const std::string &field : split(text, ' ')) {
    size_t eq = field.find('=');
    if (eq == std::string::npos)
      return std::nullopt;
    std::string key = field.substr(0, eq), value = field.substr(eq + 1);
    bool ok = true;
    if (key == "name") {
      info.name = value;
    } else if (key == "d") {
      int64_t d = 0;
      ok = value == "runtime" || number(value, d);
      if (value != "runtime")
        info.d = d;
    } else if (key == "block") {
      ok = number(value, info.blockSize);
    } else if (key == "rows_per_block") {
      ok = number(value, info.rowsPerBlock);
    } else if (key == "vector_width") {
      ok = number(value, info.vectorWidth);
    } else if (key == "launch_order") {
      ok = number(value, info.launchOrder);
    } else if (key == "cluster") {
      ok = number(value, info.clusterSize);
    } else if (key == "group") {
      ok = number(value, info.groupSize);
    } else if (key == "partial_rows") {
      ok = number(value, info.partialRows);
    } else if (key == "shared") {
      std::optional<SharedLayout> layout = SharedLayout::parse(value);
      ok = layout.has_value();
      if (layout)
        info.shared = std::move(*layout);
    } else if (key == "params") {
      for (const std::string &param : split(value, ',')) {
        std::vector<std::string> f = split(param, ':');
        std::optional<KernelParam::Kind> kind =
            f.size() == 4 ? kindFrom(f[1]) : std::nullopt;
        if (!kind || !isIdentifier(f[0]) || (f[3] != "r" && f[3] != "w"))
          return std::nullopt;
        KernelParam p{*kind, f[0], f[2], f[3] == "w"};
        // A buffer's element type is one a host can size; an integer has
        // none.
        if (p.isBuffer() != elementTypeNamed(p.elementType).has_value())
          return std::nullopt;
        info.params.push_back(std::move(p));
      }
    } else {
      return std::nullopt;
    }
    if (!ok)
      return std::nullopt;
  }
  // Text from a cache or a pack is checked like any input: nothing out of
  // what a launch allows reaches a launcher.
  // Every region holds the block's rows (SharedLayout::parse checked each
  // region, a region per group of the kernel's groups or of reproducible
  // mode's tiles included); groups of 16 to 1024 features (a power of two),
  // and a Groups buffer needs them.
  bool regions = std::all_of(
      info.shared.regions.begin(), info.shared.regions.end(),
      [&](const SharedRegion &r) { return r.rows == info.rowsPerBlock; });
  bool groups =
      info.groupSize == 0 || (info.groupSize >= 16 && info.groupSize <= 1024 &&
                              (info.groupSize & (info.groupSize - 1)) == 0);
  if (info.groupSize == 0)
    groups &= std::none_of(info.params.begin(), info.params.end(),
                           [](const KernelParam &p) {
                             return p.kind == KernelParam::Kind::Groups;
                           });
  if (!isIdentifier(info.name) || info.blockSize < 1 || info.blockSize > 1024 ||
      info.rowsPerBlock < 1 || info.rowsPerBlock > info.blockSize ||
      info.vectorWidth < 1 || info.vectorWidth > 16 || info.launchOrder < 0 ||
      (info.d && (*info.d < 1 || *info.d > kMaxD)) || !regions || !groups ||
      info.params.empty() ||
      // Fixed partial rows fill whole blocks.
      info.partialRows < 0 || info.partialRows > kReproduciblePartialRows ||
      (info.partialRows && info.partialRows % info.rowsPerBlock) ||
      // A cluster of 1 to 8 blocks (a power of two), one row a block.
      info.clusterSize < 1 || info.clusterSize > kMaxClusterSize ||
      (info.clusterSize & (info.clusterSize - 1)) ||
      (info.clusterSize > 1 && (info.rowsPerBlock != 1 || !info.d)))
    return std::nullopt;
  return info;
}
