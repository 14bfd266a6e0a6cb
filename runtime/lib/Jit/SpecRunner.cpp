//===- SpecRunner.cpp - Compile a spec and run it on host arrays ----------===//
#include "normc/Runtime/SpecRunner.h"
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Runtime/HostData.h"
#include "normc/Runtime/KernelArgs.h"

#include <cstring>
#include <limits>
#include <map>
#include <stdexcept>

using namespace normc;

namespace {

/// A buffer whose data starts `misalign` elements after a 16-byte boundary.
class HostBuffer {
public:
  HostBuffer(std::string type, size_t count, int misalign)
      : type(std::move(type)), count(count),
        offset(misalign * host::elementBytes(this->type)),
        storage(count * host::elementBytes(this->type) + offset + 16) {}

  HostBuffer(std::string type, const double *values, size_t count, int misalign)
      : HostBuffer(std::move(type), count, misalign) {
    std::vector<unsigned char> bytes = host::encode(this->type, values, count);
    if (!bytes.empty())
      std::memcpy(data(), bytes.data(), bytes.size());
  }

  void *data() {
    auto base = reinterpret_cast<uintptr_t>(storage.data());
    return reinterpret_cast<void *>((base + 15) / 16 * 16 + offset);
  }
  std::vector<double> values() { return host::decode(type, data(), count); }

private:
  std::string type;
  size_t count, offset;
  std::vector<unsigned char> storage;
};

/// An output buffer filled with NaN, so that an element the kernel never
/// writes cannot pass for a correct one.
HostBuffer poisoned(const std::string &type, size_t count, int misalign) {
  std::vector<double> nan(count, std::numeric_limits<double>::quiet_NaN());
  return HostBuffer(type, nan.data(), count, misalign);
}

} // namespace

RunOutputs normc::runSpecOnCpu(const dsl::Spec &spec, const RunInputs &in,
                               const RunOptions &options) {
  std::string errors;
  std::optional<EmittedKernel> kernel = emitSpecKernel(
      spec, options.specialize ? std::optional<int64_t>(in.d) : std::nullopt,
      options.schedule, errors);
  if (!kernel)
    throw std::runtime_error("cannot compile '" + spec.name.value + "':\n" +
                             errors);
  if (options.mutateSource)
    kernel->source = options.mutateSource(kernel->source);
  cpu::CpuModule module =
      cpu::CpuModule::compile(kernel->source, options.compile);
  return runKernelOnCpu(spec, kernel->info, module.kernel(kernel->info.name),
                        in, options);
}

RunOutputs normc::runKernelOnCpu(const dsl::Spec &spec,
                                 const KernelLaunchInfo &info,
                                 const cpu::CpuKernel &entry,
                                 const RunInputs &in,
                                 const RunOptions &options) {
  // An empty array may come without data.
  auto need = [&](const double *p, const char *what, size_t count) {
    if (!p && count)
      throw std::runtime_error("spec '" + spec.name.value + "' needs " + what);
    return p;
  };
  int misalign = options.misalignElements;
  size_t rows = static_cast<size_t>(in.rows), d = static_cast<size_t>(in.d);
  int64_t xStride = in.xStride ? in.xStride : in.d;
  int64_t residualStride = in.residualStride ? in.residualStride : in.d;
  const std::map<std::string, std::pair<const double *, int64_t>> inputs = {
      {"x", {in.x, xStride}},
      {"residual", {in.residual, residualStride}},
      {"gamma", {in.gamma, 0}},
      {"beta", {in.beta, 0}}};

  // One host buffer per buffer parameter of the kernel: inputs from `in`,
  // outputs (what the kernel writes) poisoned.
  std::map<std::string, HostBuffer> buffers;
  for (const KernelParam &p : info.params) {
    if (!p.isBuffer())
      continue;
    auto input = inputs.find(p.name);
    int64_t stride = input != inputs.end() && input->second.second
                         ? input->second.second
                         : in.d;
    size_t count = p.kind == KernelParam::Kind::Features ? d
                   : p.kind == KernelParam::Kind::Stats  ? rows
                   : p.kind == KernelParam::Kind::Partials
                       ? static_cast<size_t>(info.gridFor(in.rows)) * d
                       : rows * static_cast<size_t>(stride);
    int shift = p.kind == KernelParam::Kind::Stats ? 0 : misalign;
    if (p.written)
      buffers.emplace(p.name, poisoned(p.elementType, count, shift));
    else if (input != inputs.end())
      buffers.emplace(
          p.name, HostBuffer(p.elementType,
                             need(input->second.first, p.name.c_str(), count),
                             count, shift));
    else
      throw std::runtime_error("kernel '" + info.name + "' reads a buffer '" +
                               p.name + "' that a spec run has no data for");
  }

  KernelArgs args;
  args.rows = in.rows;
  args.cols = in.d;
  for (auto &[name, buffer] : buffers)
    args.buffers[name] = buffer.data();
  args.strides["x"] = xStride;
  args.strides["residual"] = residualStride;
  PackedArgs packed(info, args);
  cpu::launch(entry,
              cpu::Dim3{static_cast<unsigned>(info.gridFor(in.rows)), 1, 1},
              cpu::Dim3{static_cast<unsigned>(info.blockSize), 1, 1},
              info.dynamicSharedBytes(in.d), packed.data(), options.launch);

  RunOutputs out;
  out.y = buffers.at("y").values();
  if (buffers.count("residual_out"))
    out.residualOut = buffers.at("residual_out").values();
  if (buffers.count("mean"))
    out.mean = buffers.at("mean").values();
  if (buffers.count("rstd"))
    out.rstd = buffers.at("rstd").values();
  return out;
}
