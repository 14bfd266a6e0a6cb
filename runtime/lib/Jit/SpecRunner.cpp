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
  std::unique_ptr<SpecCompilation> compilation = SpecCompilation::create(
      spec, options.specialize ? std::optional<int64_t>(in.d) : std::nullopt,
      errors, options.program);
  std::optional<EmittedModule> emitted;
  if (compilation)
    emitted = compilation->emitModule(options.schedule, errors);
  if (!emitted)
    throw std::runtime_error("cannot compile '" + spec.name.value + "':\n" +
                             errors);
  if (options.mutateSource)
    emitted->source = options.mutateSource(emitted->source);
  cpu::CpuModule module =
      cpu::CpuModule::compile(emitted->source, options.compile);
  return runModuleOnCpu(spec, emitted->kernels, module, in, options);
}

RunOutputs normc::runModuleOnCpu(const dsl::Spec &spec,
                                 const std::vector<KernelLaunchInfo> &kernels,
                                 const cpu::CpuModule &module,
                                 const RunInputs &in,
                                 const RunOptions &options) {
  // An empty array may come without data.
  auto need = [&](const double *p, const std::string &what, size_t count) {
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
      {"beta", {in.beta, 0}},
      {"dy", {in.dy, 0}},
      {"dresidual_out", {in.dresidualOut, 0}},
      {"mean", {in.mean, 0}},
      {"rstd", {in.rstd, 0}},
      {"static_scale", {in.staticScale, 0}}};
  std::vector<KernelLaunch> plan = planLaunches(kernels, in.rows, in.d);
  size_t partials = static_cast<size_t>(partialRows(kernels, plan));

  // One host buffer per buffer parameter of the kernels: inputs from `in`,
  // outputs (what a kernel writes) poisoned. Later kernels share them.
  std::map<std::string, HostBuffer> buffers;
  for (const KernelLaunchInfo &info : kernels)
    for (const KernelParam &p : info.params) {
      if (!p.isBuffer() || buffers.count(p.name))
        continue;
      auto input = inputs.find(p.name);
      int64_t stride = input != inputs.end() && input->second.second
                           ? input->second.second
                           : in.d;
      size_t count = p.kind == KernelParam::Kind::Features   ? d
                     : p.kind == KernelParam::Kind::Stats    ? rows
                     : p.kind == KernelParam::Kind::Scalar   ? 1
                     : p.kind == KernelParam::Kind::Partials ? partials * d
                     : p.kind == KernelParam::Kind::Groups
                         ? rows * info.groupsPerRow(in.d)
                         : rows * stride;
      int shift = p.kind == KernelParam::Kind::Stats ||
                          p.kind == KernelParam::Kind::Scalar ||
                          p.kind == KernelParam::Kind::Groups
                      ? 0
                      : misalign;
      if (p.written)
        buffers.emplace(p.name, poisoned(p.elementType, count, shift));
      else if (input != inputs.end())
        buffers.emplace(p.name,
                        HostBuffer(p.elementType,
                                   need(input->second.first, p.name, count),
                                   count, shift));
      else
        throw std::runtime_error("kernel '" + info.name + "' reads a buffer '" +
                                 p.name + "' that a spec run has no data for");
    }

  KernelArgs args;
  args.cols = in.d;
  for (auto &[name, buffer] : buffers)
    args.buffers[name] = buffer.data();
  args.strides["x"] = xStride;
  args.strides["residual"] = residualStride;
  std::vector<std::unique_ptr<PackedArgs>> packed =
      packLaunches(kernels, plan, args);
  for (size_t i = 0; i < plan.size(); ++i) {
    const KernelLaunchInfo &info = kernels[plan[i].kernel];
    cpu::LaunchOptions launch = options.launch;
    launch.clusterSize = static_cast<unsigned>(info.clusterSize);
    cpu::launch(module.kernel(info.name),
                cpu::Dim3{static_cast<unsigned>(plan[i].grid), 1, 1},
                cpu::Dim3{static_cast<unsigned>(info.blockSize), 1, 1},
                info.dynamicSharedBytes(in.d), packed[i]->data(), launch);
  }

  RunOutputs out;
  const std::pair<const char *, std::vector<double> *> results[] = {
      {"y", &out.y},           {"residual_out", &out.residualOut},
      {"mean", &out.mean},     {"rstd", &out.rstd},
      {"dx", &out.dx},         {"dresidual", &out.dresidual},
      {"dgamma", &out.dgamma}, {"dbeta", &out.dbeta},
      {"scale", &out.scale},   {"amax", &out.amax}};
  for (auto [name, values] : results) {
    auto it = buffers.find(name);
    bool written = false;
    for (const KernelLaunchInfo &info : kernels)
      for (const KernelParam &p : info.params)
        written |= p.name == name && p.written;
    if (it != buffers.end() && written)
      *values = it->second.values();
  }
  return out;
}
