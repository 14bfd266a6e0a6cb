//===- StackPool.cpp - Fiber stacks reused across launches ----------------===//

#include "StackPool.h"

#include <boost/context/protected_fixedsize_stack.hpp>

#include <map>
#include <mutex>
#include <vector>

using namespace normc::cpu;
using boost::context::stack_context;

namespace {

/// Idle stacks by requested size. The cap bounds the address space kept
/// mapped between launches; beyond it stacks are unmapped.
class Pool {
public:
  stack_context take(std::size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      std::vector<stack_context> &idle = stacks[bytes];
      if (!idle.empty()) {
        stack_context stack = idle.back();
        idle.pop_back();
        keptBytes -= stack.size;
        return stack;
      }
    }
    return boost::context::protected_fixedsize_stack(bytes).allocate();
  }

  void give(std::size_t bytes, stack_context &stack) noexcept {
    std::lock_guard<std::mutex> lock(mutex);
    if (keptBytes + stack.size <= kMaxKeptBytes) {
      try {
        stacks[bytes].push_back(stack);
        keptBytes += stack.size;
        return;
      } catch (...) {
        // Out of memory for the bookkeeping: unmap instead.
      }
    }
    boost::context::protected_fixedsize_stack(bytes).deallocate(stack);
  }

private:
  static constexpr std::size_t kMaxKeptBytes = std::size_t(1) << 30;

  std::mutex mutex;
  std::map<std::size_t, std::vector<stack_context>> stacks;
  std::size_t keptBytes = 0;
};

Pool &pool() {
  static Pool instance;
  return instance;
}

} // namespace

stack_context PooledStackAllocator::allocate() { return pool().take(bytes); }

void PooledStackAllocator::deallocate(stack_context &stack) noexcept {
  pool().give(bytes, stack);
}
