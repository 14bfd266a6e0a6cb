//===- KernelInfoText.cpp - KernelLaunchInfo as one line of text ----------===//
#include "normc/Abi/KernelInfo.h"
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
  case KernelParam::Kind::Cols:
    return "cols";
  }
  return "";
}

std::optional<KernelParam::Kind> kindFrom(const std::string &name) {
  using Kind = KernelParam::Kind;
  for (Kind k :
       {Kind::Rows, Kind::RowStride, Kind::Features, Kind::Stats,
        Kind::Partials, Kind::Scalar, Kind::Groups, Kind::RowCount, Kind::Cols})
    if (name == kindName(k))
      return k;
  return std::nullopt;
}

std::vector<std::string> split(const std::string &text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, sep))
    parts.push_back(part);
  return parts;
}
} // namespace

std::string normc::toText(const KernelLaunchInfo &info) {
  std::ostringstream os;
  os << "name=" << info.name
     << " cols=" << (info.cols ? std::to_string(*info.cols) : "runtime")
     << " block=" << info.blockSize << " rows_per_block=" << info.rowsPerBlock
     << " vector_width=" << info.vectorWidth
     << " launch_order=" << info.launchOrder << " shared=";
  for (size_t i = 0; i < info.sharedRowElementBytes.size(); ++i)
    os << (i ? "," : "") << info.sharedRowElementBytes[i];
  if (info.clusterSize > 1)
    os << " cluster=" << info.clusterSize;
  if (info.groupSize)
    os << " group=" << info.groupSize
       << " group_table=" << info.groupTableElementBytes;
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
  try {
    for (const std::string &field : split(text, ' ')) {
      size_t eq = field.find('=');
      if (eq == std::string::npos)
        return std::nullopt;
      std::string key = field.substr(0, eq), value = field.substr(eq + 1);
      if (key == "name")
        info.name = value;
      else if (key == "cols")
        info.cols = value == "runtime" ? std::nullopt
                                       : std::optional(std::stoll(value));
      else if (key == "block")
        info.blockSize = std::stoll(value);
      else if (key == "rows_per_block")
        info.rowsPerBlock = std::stoll(value);
      else if (key == "vector_width")
        info.vectorWidth = std::stoll(value);
      else if (key == "launch_order")
        info.launchOrder = std::stoll(value);
      else if (key == "cluster")
        info.clusterSize = std::stoll(value);
      else if (key == "group")
        info.groupSize = std::stoll(value);
      else if (key == "group_table")
        info.groupTableElementBytes = std::stoll(value);
      else if (key == "shared")
        for (const std::string &bytes : split(value, ','))
          info.sharedRowElementBytes.push_back(std::stoll(bytes));
      else if (key == "params")
        for (const std::string &param : split(value, ',')) {
          std::vector<std::string> f = split(param + ":", ':');
          std::optional<KernelParam::Kind> kind =
              f.size() >= 4 ? kindFrom(f[1]) : std::nullopt;
          if (!kind)
            return std::nullopt;
          info.params.push_back({*kind, f[0], f[2], f[3] == "w"});
        }
      else
        return std::nullopt;
    }
  } catch (const std::exception &) { // stoll on a malformed number
    return std::nullopt;
  }
  // Text from a cache or a pack is checked like any input: nothing out of
  // what a launch allows reaches a launcher.
  bool elementSizes = std::all_of(
      info.sharedRowElementBytes.begin(), info.sharedRowElementBytes.end(),
      [](int64_t b) { return b == 1 || b == 2 || b == 4 || b == 8; });
  // Groups of 16 to 1024 features (a power of two), with a table of 2-, 4-
  // or 8-byte elements or none; a Groups buffer needs a group size.
  bool groups = info.groupSize == 0
                    ? info.groupTableElementBytes == 0
                    : info.groupSize >= 16 && info.groupSize <= 1024 &&
                          (info.groupSize & (info.groupSize - 1)) == 0 &&
                          (info.groupTableElementBytes == 0 ||
                           info.groupTableElementBytes == 2 ||
                           info.groupTableElementBytes == 4 ||
                           info.groupTableElementBytes == 8);
  if (info.groupSize == 0)
    groups &= std::none_of(info.params.begin(), info.params.end(),
                           [](const KernelParam &p) {
                             return p.kind == KernelParam::Kind::Groups;
                           });
  if (info.name.empty() || info.blockSize < 1 || info.blockSize > 1024 ||
      info.rowsPerBlock < 1 || info.rowsPerBlock > info.blockSize ||
      info.vectorWidth < 1 || info.vectorWidth > 16 || info.launchOrder < 0 ||
      (info.cols && (*info.cols < 1 || *info.cols > kMaxCols)) ||
      !elementSizes || !groups || info.params.empty() ||
      // A cluster of 1 to 8 blocks (a power of two), one row a block.
      info.clusterSize < 1 || info.clusterSize > kMaxClusterSize ||
      (info.clusterSize & (info.clusterSize - 1)) ||
      (info.clusterSize > 1 && (info.rowsPerBlock != 1 || !info.cols)))
    return std::nullopt;
  return info;
}
