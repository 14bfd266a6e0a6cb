//===- SharedArena.h - A block's shared memory on the CPU -----------------===//
//
// Static shared arrays (NORMC_STATIC_SHARED) are carved out of one arena in
// declaration order: every thread of a block walks the same declarations,
// keeps its own cursor, and so lands on the same addresses. The layout is
// recorded once per launch and each thread's walk is checked against it.
// The dynamic region is a separate allocation of exactly the launch's size.
// At the start of every block all of it is filled with 0xFF bytes, so a
// float read before any thread wrote it is a NaN. Under AddressSanitizer
// the arena beyond the declared arrays is poisoned as well.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_CPU_SHAREDARENA_H
#define NORMC_RUNTIME_CPU_SHAREDARENA_H

#include "normc/Runtime/Cpu/CpuAbi.h"

#include <cstddef>
#include <string>
#include <vector>

namespace normc {
namespace cpu {

/// One thread's walk through the static declarations of its block.
struct SharedCursor {
  std::size_t offset = 0;
  unsigned count = 0;
};

class SharedArena {
public:
  /// CUDA's limits on sm_90: static arrays, and static plus dynamic.
  static constexpr std::size_t kStaticLimit = 48 * 1024;
  static constexpr std::size_t kTotalLimit = 227 * 1024;
  /// The strictest alignment a declaration may ask for.
  static constexpr std::size_t kMaxAlign = 64;

  explicit SharedArena(std::size_t dynamicBytes);
  ~SharedArena();
  SharedArena(const SharedArena &) = delete;
  SharedArena &operator=(const SharedArena &) = delete;

  /// Poisons everything for a new block.
  void startBlock();

  /// The next static array of `cursor`'s thread. On an inconsistent or
  /// oversized declaration returns nullptr and explains in `error`.
  void *allocate(SharedCursor &cursor, std::size_t bytes, std::size_t align,
                 Site site, std::string &error);

  unsigned char *dynamicBase() { return dynamicRegion; }

  /// Where `address` lies in this arena (which region, at what offset);
  /// false when it is none of this block's shared memory.
  bool locate(const void *address, bool &dynamic, std::size_t &offset) const;
  /// The address at `offset` of a region of this arena (another block's
  /// view of a variable that `locate` found in its own arena).
  void *at(bool dynamic, std::size_t offset) {
    return (dynamic ? dynamicRegion : staticRegion) + offset;
  }

private:
  struct Declaration {
    std::size_t offset, bytes;
    Site site;
  };

  unsigned char *staticRegion;
  unsigned char *dynamicRegion;
  std::size_t dynamicBytes;
  std::size_t staticLimit;
  std::size_t declaredBytes = 0; // high-water mark of static declarations
  std::vector<Declaration> layout;
};

} // namespace cpu
} // namespace normc

#endif // NORMC_RUNTIME_CPU_SHAREDARENA_H
