//===- Diagnostics.h - Wording of the CPU executor's error messages -------===//

#ifndef NORMC_RUNTIME_CPU_DIAGNOSTICS_H
#define NORMC_RUNTIME_CPU_DIAGNOSTICS_H

#include "normc/Runtime/Cpu/CpuAbi.h"

#include <string>
#include <vector>

namespace normc {
namespace cpu {

/// "0-15, 17, 20-31" for ascending `ids`.
std::string formatRanges(const std::vector<unsigned> &ids);

/// "file:line".
std::string formatSite(Site site);

/// Whether two sites are the same source line (the finest the CPU device
/// tells apart: two barriers on one line are one barrier to it).
bool sameSite(Site a, Site b);

/// The CUDA spelling, e.g. "__shfl_xor_sync".
const char *warpOpName(WarpOp op);

/// "0x0000ffff".
std::string formatMask(unsigned mask);

/// "(3,0,0)".
std::string formatDim3(Dim3 d);

} // namespace cpu
} // namespace normc

#endif // NORMC_RUNTIME_CPU_DIAGNOSTICS_H
