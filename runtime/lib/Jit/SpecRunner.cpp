//===- SpecRunner.cpp - Compile a spec and run it on host arrays ----------===//
#include "normc/Runtime/Jit/SpecRunner.h"
#include "normc/Abi/Signature.h"
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Runtime/Host/HostData.h"
#include "normc/Runtime/Host/KernelArgs.h"

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
  std::vector<KernelLaunch> plan = planLaunches(kernels, in.rows, in.d);
  size_t partials = static_cast<size_t>(partialRows(kernels, plan));
  Signature signature = signatureOf(kernels);

  // One host buffer per argument: inputs from `in`, outputs poisoned; and
  // the partial sums the kernels exchange, poisoned too.
  KernelArgs args;
  args.d = in.d;
  std::map<std::string, HostBuffer> buffers;
  for (const Argument &a : signature) {
    auto given = in.arrays.find(a.name);
    int64_t stride = 0;
    if (a.strided && !a.written && given != in.arrays.end() &&
        given->second.rowStride)
      stride = args.strides[a.name] = given->second.rowStride;
    size_t count = static_cast<size_t>(a.elements(in.rows, in.d, stride));
    // Misaligned by whole elements: the buffers of features (a row's).
    int shift =
        a.dims.back() == Argument::Dim::D ? options.misalignElements : 0;
    if (a.written) {
      buffers.emplace(a.name, poisoned(a.elementType, count, shift));
    } else {
      const double *data =
          given == in.arrays.end() ? nullptr : given->second.data;
      if (!data && count)
        throw std::runtime_error("spec '" + spec.name.value + "' needs " +
                                 a.name + " " + shapeText(a));
      buffers.emplace(a.name, HostBuffer(a.elementType, data, count, shift));
    }
  }
  for (const KernelLaunchInfo &info : kernels)
    for (const KernelParam &p : info.params)
      if (p.kind == KernelParam::Kind::Partials && !buffers.count(p.name))
        buffers.emplace(p.name, poisoned(p.elementType, partials * in.d,
                                         options.misalignElements));
  for (auto &[name, buffer] : buffers)
    args.buffers[name] = buffer.data();
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
  for (const Argument &a : signature)
    if (a.written)
      out.arrays[a.name] = buffers.at(a.name).values();
  return out;
}
