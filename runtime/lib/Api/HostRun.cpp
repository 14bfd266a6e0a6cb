//===- HostRun.cpp - Run a program of a Norm on arrays of doubles ---------===//
#include "normc/Runtime/Api/HostRun.h"

#include "normc/Runtime/Cuda/CudaDriver.h"
#include "normc/Runtime/Host/HostData.h"

#include <algorithm>
#include <memory>

using namespace normc;

namespace {
/// Buffers in the memory a Norm's device reads: host memory for the CPU
/// device, device memory for a GPU. Each is followed by a guard of known
/// bytes, checked after the run: a kernel that writes past the size its
/// signature gives is an error, not a corruption that goes unseen.
class DeviceMemory {
public:
  static constexpr size_t kGuardBytes = 64;
  static constexpr unsigned char kGuard = 0xa5;

  explicit DeviceMemory(DeviceKind kind) : onGpu(kind == DeviceKind::Cuda) {}

  /// A buffer of `bytes` holding `data` (all 0xff bytes, a NaN in every
  /// float type, when empty); null when `bytes` is 0.
  void *make(const std::string &name, size_t bytes,
             const std::vector<unsigned char> &data) {
    if (!bytes)
      return nullptr;
    std::vector<unsigned char> image(bytes + kGuardBytes, kGuard);
    std::fill_n(image.begin(), bytes, 0xff);
    std::copy_n(data.begin(), std::min(bytes, data.size()), image.begin());
    void *pointer;
    if (onGpu) {
      gpu.emplace_back(0, image.size());
      gpu.back().upload(image.data(), image.size());
      pointer = gpu.back().get();
    } else {
      host.push_back(std::make_unique<unsigned char[]>(image.size()));
      std::copy(image.begin(), image.end(), host.back().get());
      pointer = host.back().get();
    }
    made.push_back({name, pointer, bytes});
    return pointer;
  }

  /// The `bytes` bytes (and the guard after them) of the buffer at
  /// `pointer`, once the queued work is done; none for a buffer of no bytes
  /// (null: no rows).
  std::vector<unsigned char> read(const void *pointer, size_t bytes) const {
    if (!pointer)
      return {};
    std::vector<unsigned char> out(bytes + kGuardBytes);
    if (onGpu) {
      for (const cuda::Buffer &b : gpu)
        if (b.get() == pointer)
          b.download(out.data(), out.size());
    } else {
      auto *from = static_cast<const unsigned char *>(pointer);
      std::copy(from, from + out.size(), out.begin());
    }
    return out;
  }

  /// Throws Error naming a buffer whose guard a kernel wrote.
  void checkGuards() const {
    for (const Made &m : made) {
      std::vector<unsigned char> bytes = read(m.pointer, m.bytes);
      if (!std::all_of(bytes.begin() + m.bytes, bytes.end(),
                       [](unsigned char b) { return b == kGuard; }))
        throw Error("the kernels wrote past the " + std::to_string(m.bytes) +
                    " bytes of '" + m.name + "' that the signature gives");
    }
  }

private:
  struct Made {
    std::string name;
    const void *pointer;
    size_t bytes;
  };
  bool onGpu;
  std::vector<cuda::Buffer> gpu;
  std::vector<std::unique_ptr<unsigned char[]>> host;
  std::vector<Made> made;
};
} // namespace

RunOutputs normc::runOnDevice(const Norm &norm, const std::string &program,
                              const RunInputs &in,
                              const std::string &schedule) {
  Signature signature = norm.signature(program);
  DeviceMemory memory(norm.device());
  Arguments args(in.rows, in.d);
  try {
    for (const Argument &a : signature) {
      int64_t count = a.elements(in.rows, in.d);
      std::vector<unsigned char> data;
      if (!a.written) {
        const double *values = in.get(a.name);
        if (!values && count)
          throw Error("the " + program + " of '" + norm.name() + "' needs " +
                      a.name + " " + shapeText(a));
        data = host::encode(a.elementType, values, size_t(count));
      }
      args.set(a.name,
               memory.make(a.name, size_t(a.bytes(in.rows, in.d)), data));
    }
    bool forward = program == "forward";
    if (schedule.empty())
      forward ? norm.forward(args) : norm.backward(args);
    else if (forward)
      norm.forwardWith(schedule, args);
    else
      norm.backwardWith(schedule, args);
    memory.checkGuards();
    RunOutputs out;
    for (const Argument &a : signature)
      if (a.written) {
        std::vector<unsigned char> bytes = memory.read(
            args.tensors.at(a.name).data, size_t(a.bytes(in.rows, in.d)));
        out.arrays[a.name] = host::decode(a.elementType, bytes.data(),
                                          size_t(a.elements(in.rows, in.d)));
      }
    return out;
  } catch (const cuda::CudaError &error) {
    throw Error(error.what());
  }
}
