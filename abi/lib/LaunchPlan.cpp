//===- LaunchPlan.cpp - How a module's kernels are launched ---------------===//
#include "normc/Abi/ElementType.h"
#include "normc/Abi/KernelInfo.h"

#include <algorithm>

using namespace normc;

static bool writesPartials(const KernelLaunchInfo &info) {
  for (const KernelParam &p : info.params)
    if (p.kind == KernelParam::Kind::Partials && p.written)
      return true;
  return false;
}

static bool readsPartials(const KernelLaunchInfo &info) {
  for (const KernelParam &p : info.params)
    if (p.kind == KernelParam::Kind::Partials && !p.written)
      return true;
  return false;
}

std::vector<KernelLaunch>
normc::planLaunches(const std::vector<KernelLaunchInfo> &sequence, int64_t rows,
                    int64_t d, int64_t maxGrid) {
  // A capped grid stays a whole number of clusters.
  auto capped = [&](int64_t grid, int64_t cluster = 1) {
    return maxGrid > 0
               ? std::min(grid, std::max(cluster, maxGrid / cluster * cluster))
               : grid;
  };
  std::vector<KernelLaunch> plan;
  int64_t partials = 0;
  for (size_t i = 0; i < sequence.size(); ++i) {
    const KernelLaunchInfo &info = sequence[i];
    KernelLaunch launch{i, capped(info.gridFor(rows), info.clusterSize), rows};
    if (info.partialRows > 0 && writesPartials(info))
      launch.grid =
          std::min(info.gridFor(rows),
                   std::max<int64_t>(1, info.partialRows / info.rowsPerBlock));
    if (readsPartials(info)) {
      // Partial rows past `rows` hold zeros: adding them could only turn a
      // -0 sum into +0, differently for different grids.
      launch.rows = std::min(partials, rows);
      launch.grid = capped(
          std::max<int64_t>(1, (d + info.blockSize - 1) / info.blockSize));
    } else if (writesPartials(info)) {
      partials = launch.grid * info.rowsPerBlock; // a row per row group
    }
    plan.push_back(launch);
  }
  return plan;
}

int64_t normc::partialRows(const std::vector<KernelLaunchInfo> &sequence,
                           const std::vector<KernelLaunch> &plan) {
  for (const KernelLaunch &launch : plan)
    if (writesPartials(sequence[launch.kernel]))
      return launch.grid * sequence[launch.kernel].rowsPerBlock;
  return 0;
}

RowTraffic normc::rowTraffic(const std::vector<KernelLaunchInfo> &sequence) {
  RowTraffic traffic;
  std::vector<std::string> seen;
  for (const KernelLaunchInfo &info : sequence)
    for (const KernelParam &p : info.params) {
      if (p.kind != KernelParam::Kind::Rows ||
          std::find(seen.begin(), seen.end(), p.name) != seen.end())
        continue;
      seen.push_back(p.name);
      (p.written ? traffic.writtenBytes : traffic.readBytes) += elementBytes(p);
      traffic.widestBytes = std::max(traffic.widestBytes, elementBytes(p));
    }
  return traffic;
}

int64_t
normc::rowBytesPerElement(const std::vector<KernelLaunchInfo> &sequence) {
  RowTraffic traffic = rowTraffic(sequence);
  return traffic.readBytes + traffic.writtenBytes;
}

int64_t normc::elementBytes(const KernelParam &p) {
  std::optional<ElementType> type = elementTypeNamed(p.elementType);
  return type ? type->bytesFor(1) : 0;
}
