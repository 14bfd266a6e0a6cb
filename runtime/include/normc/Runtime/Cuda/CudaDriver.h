//===- CudaDriver.h - The CUDA driver API, opened at run time -------------===//
//
// Devices, modules, memory, launches and event timing on NVIDIA GPUs through
// the CUDA driver API. libcuda.so.1 is opened with dlopen on first use, never
// linked, so programs that use this library start and run on machines
// without a GPU or driver: available() then says why, and every other call
// throws CudaError. Each device is used through its primary context, which
// every call makes current on the calling thread; all calls are safe from
// several host threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_CUDADRIVER_H
#define NORMC_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

namespace normc::cuda {

/// A driver call failed, or no driver can be used. The message names the
/// call and the driver's error name and text, e.g. "cuModuleLoadDataEx
/// failed: CUDA_ERROR_INVALID_IMAGE (200): device kernel image is invalid".
class CudaError : public std::runtime_error {
public:
  /// The code of errors that no driver call returned: libcuda could not be
  /// opened or lacks a function.
  static constexpr int kNoDriver = -1;

  CudaError(int code, const std::string &message);
  /// The CUresult of the failed call, or kNoDriver.
  int code() const { return result; }

private:
  int result;
};

/// Opens libcuda.so.1 (falling back to libcuda.so) and calls cuInit(0), once
/// per process. Returns false when no GPU can be used and then sets `why`,
/// e.g. "libcuda.so.1 not found: ...", "cuInit failed: CUDA_ERROR_NO_DEVICE
/// (100): no CUDA-capable device is detected", or "cuInit failed:
/// CUDA_ERROR_STUB_LIBRARY (34): ... stub library ...". Never throws.
bool available(std::string *why = nullptr);

/// The number of CUDA devices; 0 when unavailable. Never throws.
int deviceCount();

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int ccMajor = 0;
  int ccMinor = 0;
  int smCount = 0;
  size_t l2Bytes = 0;
  size_t totalBytes = 0;
  /// Shared memory a block may use after Function::setMaxDynamicShared.
  size_t sharedPerBlockOptin = 0;
  int maxThreadsPerBlock = 0;
  /// The driver's CUDA version, e.g. 13000 for 13.0.
  int driverVersion = 0;

  /// The NVRTC architecture of the device, e.g. "sm_90".
  std::string arch() const;
};

/// Throws CudaError when unavailable or `ordinal` names no device.
DeviceInfo deviceInfo(int ordinal = 0);

/// A kernel of a loaded module. Holding it keeps the module loaded; copies
/// share it.
class Function {
public:
  /// Lets launches use up to `bytes` of dynamic shared memory; needed above
  /// 48 KiB (up to DeviceInfo::sharedPerBlockOptin minus static shared).
  void setMaxDynamicShared(size_t bytes) const;

  const std::string &name() const { return kernelName; }
  int ordinal() const { return device; }
  /// The CUfunction.
  void *handle() const { return function; }

private:
  friend class Module;
  Function(int ordinal, std::string name, void *function,
           std::shared_ptr<void> module);

  int device;
  std::string kernelName;
  void *function;
  std::shared_ptr<void> module;
};

/// A CUBIN or PTX image loaded onto one device. Copies share the loaded
/// image, which is unloaded when the last Module or Function referring to it
/// goes.
class Module {
public:
  /// Loads `image` (cuModuleLoadDataEx; PTX is compiled by the driver, and
  /// its error log is appended to the message of a failure).
  static Module load(int ordinal, const std::string &image);

  /// The kernel `name` (its extern "C" or mangled name). Throws CudaError
  /// with CUDA_ERROR_NOT_FOUND when the module has none.
  Function function(const std::string &name) const;

  int ordinal() const { return device; }

private:
  Module(int ordinal, std::shared_ptr<void> module);

  int device;
  std::shared_ptr<void> module;
};

/// Device memory of one device, freed on destruction; movable.
class Buffer {
public:
  /// Allocates `size` bytes (none for 0: get() is then null).
  Buffer(int ordinal, size_t size);
  Buffer(Buffer &&other) noexcept;
  Buffer &operator=(Buffer &&other) noexcept;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer();

  /// The device address, as a kernel's pointer parameter takes it.
  void *get() const { return pointer; }
  size_t size() const { return bytes; }
  int ordinal() const { return device; }

  /// Copy `count` bytes to or from the start of the buffer, after the work
  /// queued on the default stream. upload returns once `host` may be
  /// reused, download once the bytes have arrived. Throw
  /// std::invalid_argument when `count` exceeds size().
  void upload(const void *host, size_t count);
  void download(void *host, size_t count) const;
  /// Queues setting every byte to `value` on the default stream.
  void fill(unsigned char value);

private:
  void release() noexcept;

  int device;
  size_t bytes;
  void *pointer = nullptr; // a CUdeviceptr
};

/// A CUstream; nullptr is the default stream.
using Stream = void *;

/// Queues `f` over `grid` blocks of `block` threads. `args[i]` points at the
/// value of kernel parameter i (normc::PackedArgs::data()). Launches are
/// asynchronous: faults inside the kernel surface at the next synchronizing
/// call (synchronize, Buffer::download, timeMedianMs).
void launch(const Function &f, unsigned grid, unsigned block,
            size_t dynamicShared, void **args, Stream stream = nullptr);

/// Waits for all work queued on the device.
void synchronize(int ordinal = 0);

/// Times `run`, which queues work on the default stream, with CUDA events:
/// `warmup` untimed runs, then `repeats` timed runs, each preceded by an L2
/// flush (a memset of a buffer twice the L2 size) outside the timed span.
/// Returns the median in milliseconds. Throws std::invalid_argument when
/// warmup < 0 or repeats < 1.
double timeMedianMs(int ordinal, const std::function<void()> &run,
                    int warmup = 3, int repeats = 20);

} // namespace normc::cuda

#endif // NORMC_RUNTIME_CUDADRIVER_H
