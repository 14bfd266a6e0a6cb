//===- Diagnostics.cpp - Wording of the CPU executor's error messages -----===//

#include "Diagnostics.h"

#include <cstdio>
#include <cstring>

using namespace normc::cpu;

std::string normc::cpu::formatRanges(const std::vector<unsigned> &ids) {
  std::string text;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
      ++j;
    if (!text.empty())
      text += ", ";
    text += std::to_string(ids[i]);
    if (j > i)
      text += "-" + std::to_string(ids[j]);
    i = j + 1;
  }
  return text;
}

std::string normc::cpu::formatSite(Site site) {
  return std::string(site.file ? site.file : "?") + ":" +
         std::to_string(site.line);
}

bool normc::cpu::sameSite(Site a, Site b) {
  return a.line == b.line &&
         (a.file == b.file ||
          (a.file && b.file && !std::strcmp(a.file, b.file)));
}

const char *normc::cpu::warpOpName(WarpOp op) {
  switch (op) {
  case WarpOp::ShflIdx:
    return "__shfl_sync";
  case WarpOp::ShflUp:
    return "__shfl_up_sync";
  case WarpOp::ShflDown:
    return "__shfl_down_sync";
  case WarpOp::ShflXor:
    return "__shfl_xor_sync";
  case WarpOp::Ballot:
    return "__ballot_sync/__any_sync/__all_sync";
  case WarpOp::Sync:
    return "__syncwarp";
  }
  return "a warp collective";
}

std::string normc::cpu::formatMask(unsigned mask) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", mask);
  return text;
}

std::string normc::cpu::formatDim3(Dim3 d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," +
         std::to_string(d.z) + ")";
}
