//===- SharedArena.cpp - A block's shared memory on the CPU ---------------===//

#include "SharedArena.h"

#include "AsanFiber.h"
#include "Diagnostics.h"

#include <cstdint>
#include <cstring>
#include <new>

using namespace normc::cpu;

namespace {

constexpr unsigned char kPoisonByte = 0xFF;

unsigned char *allocateAligned(std::size_t bytes) {
  return static_cast<unsigned char *>(
      ::operator new[](bytes, std::align_val_t(SharedArena::kMaxAlign)));
}

void freeAligned(unsigned char *p) {
  ::operator delete[](p, std::align_val_t(SharedArena::kMaxAlign));
}

} // namespace

SharedArena::SharedArena(std::size_t dynamicBytes)
    : staticRegion(allocateAligned(kStaticLimit)), dynamicRegion(nullptr),
      dynamicBytes(dynamicBytes),
      staticLimit(dynamicBytes < kTotalLimit - kStaticLimit
                      ? kStaticLimit
                      : kTotalLimit - dynamicBytes) {
  try {
    // Exactly the launch's size, so that AddressSanitizer sees overruns.
    dynamicRegion = allocateAligned(dynamicBytes);
  } catch (...) {
    freeAligned(staticRegion);
    throw;
  }
  poisonMemory(staticRegion, kStaticLimit);
}

SharedArena::~SharedArena() {
  unpoisonMemory(staticRegion, kStaticLimit);
  freeAligned(staticRegion);
  freeAligned(dynamicRegion);
}

void SharedArena::startBlock() {
  std::memset(staticRegion, kPoisonByte, declaredBytes);
  std::memset(dynamicRegion, kPoisonByte, dynamicBytes);
}

bool SharedArena::locate(const void *address, bool &dynamic,
                         std::size_t &offset) const {
  auto p = reinterpret_cast<std::uintptr_t>(address);
  auto in = [&](const unsigned char *base, std::size_t bytes) {
    auto b = reinterpret_cast<std::uintptr_t>(base);
    if (p < b || p >= b + bytes)
      return false;
    offset = p - b;
    return true;
  };
  if (in(staticRegion, declaredBytes)) {
    dynamic = false;
    return true;
  }
  dynamic = true;
  return in(dynamicRegion, dynamicBytes);
}

void *SharedArena::allocate(SharedCursor &cursor, std::size_t bytes,
                            std::size_t align, Site site, std::string &error) {
  if (align > kMaxAlign) {
    error = "declares a shared array at " + formatSite(site) + " aligned to " +
            std::to_string(align) + " bytes; at most " +
            std::to_string(kMaxAlign) + " is supported";
    return nullptr;
  }
  // CUDA aligns shared arrays to at least 16 bytes (vector loads rely on it).
  std::size_t alignment = align < 16 ? 16 : align;
  std::size_t offset = (cursor.offset + alignment - 1) & ~(alignment - 1);
  std::size_t end = offset + bytes;
  unsigned index = cursor.count;
  if (index < layout.size()) {
    const Declaration &first = layout[index];
    if (first.offset != offset || first.bytes != bytes ||
        !sameSite(first.site, site)) {
      error = "declares shared array #" + std::to_string(index) + " at " +
              formatSite(site) + " as " + std::to_string(bytes) +
              " bytes at offset " + std::to_string(offset) +
              ", but another thread declared it at " + formatSite(first.site) +
              " as " + std::to_string(first.bytes) + " bytes at offset " +
              std::to_string(first.offset) +
              " (all threads of a block must declare the same shared arrays "
              "in the same order)";
      return nullptr;
    }
  } else {
    if (end > staticLimit) {
      error = "declares static shared memory up to " + std::to_string(end) +
              " bytes at " + formatSite(site) + ", beyond the limit of " +
              std::to_string(staticLimit) +
              " bytes (48 KiB, and 227 KiB "
              "together with the dynamic shared memory)";
      return nullptr;
    }
    layout.push_back(Declaration{offset, bytes, site});
  }
  if (end > declaredBytes) {
    unpoisonMemory(staticRegion + declaredBytes, end - declaredBytes);
    std::memset(staticRegion + declaredBytes, kPoisonByte, end - declaredBytes);
    declaredBytes = end;
  }
  cursor.offset = end;
  cursor.count = index + 1;
  return staticRegion + offset;
}
