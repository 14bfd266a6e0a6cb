//===- StackPool.h - Fiber stacks reused across launches ------------------===//
//
// Every CUDA thread of a block needs a fiber stack, and mapping one costs
// two system calls. Stacks come from a process-wide pool instead: a launch
// takes what it needs and gives it back when its host threads finish.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_CPU_STACKPOOL_H
#define NORMC_RUNTIME_CPU_STACKPOOL_H

#include <boost/context/stack_context.hpp>

#include <cstddef>

namespace normc {
namespace cpu {

/// A Boost.Context StackAllocator over the pool: stacks of at least `bytes`
/// usable bytes with a guard page below them.
class PooledStackAllocator {
public:
  explicit PooledStackAllocator(std::size_t bytes) : bytes(bytes) {}

  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context &stack) noexcept;

private:
  std::size_t bytes;
};

} // namespace cpu
} // namespace normc

#endif // NORMC_RUNTIME_CPU_STACKPOOL_H
