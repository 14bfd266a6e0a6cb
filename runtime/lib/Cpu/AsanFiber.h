//===- AsanFiber.h - AddressSanitizer annotations for fibers --------------===//
//
// AddressSanitizer tracks which stack the program runs on; switching fibers
// behind its back makes it report false stack overflows or miss real ones.
// These wrappers announce every switch and let the executor poison shared
// memory that no declaration covers. They compile to nothing without ASan.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_CPU_ASANFIBER_H
#define NORMC_RUNTIME_CPU_ASANFIBER_H

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define NORMC_CPU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NORMC_CPU_ASAN 1
#endif
#endif

#ifdef NORMC_CPU_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace normc {
namespace cpu {

/// Before switching to the stack [bottom, bottom + size). `fakeStack` saves
/// the current fiber's fake stack; pass nullptr when it is finishing.
inline void startSwitchFiber(void **fakeStack, const void *bottom,
                             std::size_t size) {
#ifdef NORMC_CPU_ASAN
  __sanitizer_start_switch_fiber(fakeStack, bottom, size);
#else
  (void)fakeStack, (void)bottom, (void)size;
#endif
}

/// Right after a switch, on the new stack; reports the stack switched from.
inline void finishSwitchFiber(void *fakeStack, const void **oldBottom,
                              std::size_t *oldSize) {
#ifdef NORMC_CPU_ASAN
  __sanitizer_finish_switch_fiber(fakeStack, oldBottom, oldSize);
#else
  (void)fakeStack, (void)oldBottom, (void)oldSize;
#endif
}

inline void poisonMemory(const void *begin, std::size_t size) {
#ifdef NORMC_CPU_ASAN
  ASAN_POISON_MEMORY_REGION(begin, size);
#else
  (void)begin, (void)size;
#endif
}

inline void unpoisonMemory(const void *begin, std::size_t size) {
#ifdef NORMC_CPU_ASAN
  ASAN_UNPOISON_MEMORY_REGION(begin, size);
#else
  (void)begin, (void)size;
#endif
}

} // namespace cpu
} // namespace normc

#endif // NORMC_RUNTIME_CPU_ASANFIBER_H
