//===- Buffer.cpp - Device memory and copies ------------------------------===//

#include "Context.h"
#include "Driver.h"

#include <stdexcept>
#include <utility>

using namespace normc::cuda;
using namespace normc::cuda::detail;

static CUdeviceptr address(void *pointer) {
  return reinterpret_cast<CUdeviceptr>(pointer);
}

Buffer::Buffer(int ordinal, size_t size) : device(ordinal), bytes(size) {
  makeCurrent(ordinal);
  if (size == 0)
    return;
  CUdeviceptr allocated = 0;
  check(api().cuMemAlloc(&allocated, size),
        "cuMemAlloc(" + std::to_string(size) + " B)");
  pointer = reinterpret_cast<void *>(allocated);
}

Buffer::Buffer(Buffer &&other) noexcept
    : device(other.device), bytes(std::exchange(other.bytes, 0)),
      pointer(std::exchange(other.pointer, nullptr)) {}

Buffer &Buffer::operator=(Buffer &&other) noexcept {
  if (this != &other) {
    release();
    device = other.device;
    bytes = std::exchange(other.bytes, 0);
    pointer = std::exchange(other.pointer, nullptr);
  }
  return *this;
}

Buffer::~Buffer() { release(); }

void Buffer::release() noexcept {
  // A destructor has no one to report a failed free to.
  if (pointer && tryMakeCurrent(device))
    api().cuMemFree(address(pointer));
  pointer = nullptr;
  bytes = 0;
}

static void checkFits(const char *what, size_t count, size_t bytes) {
  if (count > bytes)
    throw std::invalid_argument(
        std::string(what) + ": " + std::to_string(count) +
        " B do not fit a buffer of " + std::to_string(bytes) + " B");
}

void Buffer::upload(const void *host, size_t count) {
  checkFits("Buffer::upload", count, bytes);
  if (count == 0)
    return;
  makeCurrent(device);
  check(api().cuMemcpyHtoD(address(pointer), host, count),
        "cuMemcpyHtoD(" + std::to_string(count) + " B)");
}

void Buffer::download(void *host, size_t count) const {
  checkFits("Buffer::download", count, bytes);
  if (count == 0)
    return;
  makeCurrent(device);
  check(api().cuMemcpyDtoH(host, address(pointer), count),
        "cuMemcpyDtoH(" + std::to_string(count) + " B)");
}

void Buffer::fill(unsigned char value) {
  if (bytes == 0)
    return;
  makeCurrent(device);
  check(api().cuMemsetD8(address(pointer), value, bytes),
        "cuMemsetD8(" + std::to_string(bytes) + " B)");
}
