//===- Hooks.h - The executor's entry points for kernel code --------------===//

#ifndef NORMC_RUNTIME_CPU_HOOKS_H
#define NORMC_RUNTIME_CPU_HOOKS_H

#include "normc/Runtime/Cpu/CpuAbi.h"

namespace normc {
namespace cpu {

/// The table handed to every loaded module (normc_cpu_bind).
const Hooks &executorHooks();

} // namespace cpu
} // namespace normc

#endif // NORMC_RUNTIME_CPU_HOOKS_H
