//===- CudaRun.cpp - normc run on a CUDA GPU through the runtime API ------===//
#include "CudaRun.h"

#include "normc/Runtime/CudaDriver.h"
#include "normc/Runtime/HostData.h"
#include "normc/normc.h"

using namespace normc;

namespace {
/// Device copies of host arrays, and device outputs to read back.
class DeviceArrays {
public:
  const void *upload(const double *values, size_t count, dsl::DType type) {
    if (!values || !count)
      return nullptr;
    std::vector<unsigned char> bytes =
        host::encode(dsl::toString(type), values, count);
    buffers.emplace_back(0, bytes.size());
    buffers.back().upload(bytes.data(), bytes.size());
    return buffers.back().get();
  }
  void *output(size_t count, dsl::DType type) {
    buffers.emplace_back(0, count * dsl::byteWidth(type));
    return buffers.back().get();
  }
  static std::vector<double> download(const void *pointer, size_t count,
                                      dsl::DType type,
                                      std::vector<cuda::Buffer> &all) {
    for (const cuda::Buffer &b : all)
      if (b.get() == pointer) {
        std::vector<unsigned char> bytes(b.size());
        b.download(bytes.data(), bytes.size());
        return host::decode(dsl::toString(type), bytes.data(), count);
      }
    return {};
  }
  std::vector<cuda::Buffer> buffers;
};
} // namespace

RunOutputs normc::tool::runSpecOnCuda(const std::string &specPath,
                                      const dsl::Spec &spec,
                                      const RunInputs &in,
                                      const Program &program) {
  RuntimeOptions options;
  options.device = DeviceKind::Cuda;
  Runtime runtime(options);
  Norm norm = runtime.loadSpecFile(specPath);
  RunOutputs out;
  if (in.rows == 0) {
    // Nothing to launch: no rows give no dx and all-zero parameter sums.
    if (program.backward && spec.gain.value)
      out.dgamma.assign(in.d, 0.0);
    if (program.backward && spec.bias.value)
      out.dbeta.assign(in.d, 0.0);
    return out;
  }
  size_t cells = size_t(in.rows) * size_t(in.d);
  DeviceArrays device;
  auto back = [&](const void *p, size_t count, dsl::DType type) {
    return p ? DeviceArrays::download(p, count, type, device.buffers)
             : std::vector<double>();
  };
  const void *x = device.upload(in.x, cells, spec.input.value);
  const void *residual = device.upload(in.residual, cells, spec.input.value);
  const void *gamma = device.upload(in.gamma, in.d, spec.params.value);
  if (program.backward) {
    BackwardArgs a;
    a.rows = in.rows;
    a.d = in.d;
    a.x = x;
    a.residual = residual;
    a.gamma = gamma;
    a.dy = device.upload(in.dy, cells, spec.output.value);
    a.dresidualOut = device.upload(in.dresidualOut, cells, spec.input.value);
    a.mean = static_cast<const float *>(
        device.upload(in.mean, in.rows, dsl::DType::F32));
    a.rstd = static_cast<const float *>(
        device.upload(in.rstd, in.rows, dsl::DType::F32));
    a.dx = device.output(cells, spec.input.value);
    if (spec.residualAdd.value)
      a.dresidual = device.output(cells, spec.input.value);
    if (spec.gain.value)
      a.dgamma = device.output(in.d, spec.params.value);
    if (spec.bias.value)
      a.dbeta = device.output(in.d, spec.params.value);
    norm.backward(a);
    cuda::synchronize(0);
    out.dx = back(a.dx, cells, spec.input.value);
    out.dresidual = back(a.dresidual, cells, spec.input.value);
    out.dgamma = back(a.dgamma, in.d, spec.params.value);
    out.dbeta = back(a.dbeta, in.d, spec.params.value);
    return out;
  }
  ForwardArgs a;
  a.rows = in.rows;
  a.d = in.d;
  a.x = x;
  a.residual = residual;
  a.gamma = gamma;
  a.beta = device.upload(in.beta, in.d, spec.params.value);
  a.y = device.output(cells, spec.output.value);
  if (spec.residualAdd.value)
    a.residualOut = device.output(cells, spec.input.value);
  if (spec.saveStats.value && spec.center.value)
    a.mean = static_cast<float *>(device.output(in.rows, dsl::DType::F32));
  if (spec.saveStats.value)
    a.rstd = static_cast<float *>(device.output(in.rows, dsl::DType::F32));
  if (spec.quantized() &&
      spec.quantizeScale.value == dsl::QuantizeScale::Static) {
    a.staticScale = static_cast<const float *>(
        device.upload(in.staticScale, 1, dsl::DType::F32));
    a.amax = static_cast<float *>(device.output(in.rows, dsl::DType::F32));
  } else if (spec.quantized()) {
    a.scale = static_cast<float *>(device.output(in.rows, dsl::DType::F32));
  }
  norm.forward(a);
  cuda::synchronize(0);
  out.y = back(a.y, cells, spec.output.value);
  out.residualOut = back(a.residualOut, cells, spec.input.value);
  out.mean = back(a.mean, in.rows, dsl::DType::F32);
  out.rstd = back(a.rstd, in.rows, dsl::DType::F32);
  out.scale = back(a.scale, in.rows, dsl::DType::F32);
  out.amax = back(a.amax, in.rows, dsl::DType::F32);
  return out;
}
