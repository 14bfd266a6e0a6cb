//===- Module.cpp - normc._normc: the runtime API for Python --------------===//
//
// A thin binding of include/normc/normc.h. Tensors cross as addresses and
// strides (Python checks them, see normc/_op.py), so the extension links no
// part of PyTorch and works with any version of it. Launches release the
// GIL; normc::Error becomes normc.Error (a RuntimeError), a spec that does
// not parse a ValueError with normc's positioned diagnostics.
//
//===----------------------------------------------------------------------===//
#include "normc/normc.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>

namespace nb = nanobind;
using namespace nb::literals;

namespace {

template <typename T> T *pointer(uintptr_t address) {
  return reinterpret_cast<T *>(address);
}

normc::DeviceKind parseDevice(const std::string &device) {
  if (device == "cpu")
    return normc::DeviceKind::Cpu;
  if (device == "cuda")
    return normc::DeviceKind::Cuda;
  throw nb::value_error(
      ("device must be \"cpu\" or \"cuda\", got \"" + device + "\"").c_str());
}

normc::Norm loadSpec(normc::Runtime &runtime, const std::string &toml,
                     const std::string &fileName) {
  try {
    return runtime.loadSpecString(toml, fileName);
  } catch (const normc::Error &error) {
    throw nb::value_error(error.what());
  }
}

/// The fields ForwardArgs and BackwardArgs share.
template <typename Args>
Args rowArgs(int64_t rows, int64_t d, uintptr_t x, int64_t xStride,
             uintptr_t residual, int64_t residualStride, uintptr_t gamma) {
  Args a;
  a.rows = rows;
  a.d = d;
  a.x = pointer<const void>(x);
  a.xStride = xStride;
  a.residual = pointer<const void>(residual);
  a.residualStride = residualStride;
  a.gamma = pointer<const void>(gamma);
  return a;
}

void forward(const normc::Norm &norm, int64_t rows, int64_t d, uintptr_t x,
             int64_t xStride, uintptr_t residual, int64_t residualStride,
             uintptr_t gamma, uintptr_t beta, uintptr_t y,
             uintptr_t residualOut, uintptr_t mean, uintptr_t rstd,
             uintptr_t stream, const std::string &schedule, uintptr_t scale,
             uintptr_t staticScale, uintptr_t amax) {
  auto a = rowArgs<normc::ForwardArgs>(rows, d, x, xStride, residual,
                                       residualStride, gamma);
  a.beta = pointer<const void>(beta);
  a.y = pointer<void>(y);
  a.residualOut = pointer<void>(residualOut);
  a.mean = pointer<float>(mean);
  a.rstd = pointer<float>(rstd);
  a.scale = pointer<float>(scale);
  a.staticScale = pointer<const float>(staticScale);
  a.amax = pointer<float>(amax);
  if (schedule.empty())
    norm.forward(a, pointer<void>(stream));
  else
    norm.forwardWith(schedule, a, pointer<void>(stream));
}

void backward(const normc::Norm &norm, int64_t rows, int64_t d, uintptr_t x,
              int64_t xStride, uintptr_t residual, int64_t residualStride,
              uintptr_t gamma, uintptr_t dy, int64_t dyStride,
              uintptr_t dresidualOut, int64_t dresidualOutStride,
              uintptr_t mean, uintptr_t rstd, uintptr_t dx, uintptr_t dresidual,
              uintptr_t dgamma, uintptr_t dbeta, uintptr_t stream,
              const std::string &schedule) {
  auto a = rowArgs<normc::BackwardArgs>(rows, d, x, xStride, residual,
                                        residualStride, gamma);
  a.dy = pointer<const void>(dy);
  a.dyStride = dyStride;
  a.dresidualOut = pointer<const void>(dresidualOut);
  a.dresidualOutStride = dresidualOutStride;
  a.mean = pointer<const float>(mean);
  a.rstd = pointer<const float>(rstd);
  a.dx = pointer<void>(dx);
  a.dresidual = pointer<void>(dresidual);
  a.dgamma = pointer<void>(dgamma);
  a.dbeta = pointer<void>(dbeta);
  if (schedule.empty())
    norm.backward(a, pointer<void>(stream));
  else
    norm.backwardWith(schedule, a, pointer<void>(stream));
}

} // namespace

NB_MODULE(_normc, m) {
  m.doc() = "normc's runtime: JIT-compiled normalization kernels";
  nb::exception<normc::Error>(m, "Error", PyExc_RuntimeError);
  // Loaded kernels live in module-level caches until the interpreter exits;
  // that is by design, not a leak to report.
  nb::set_leak_warnings(false);

  nb::class_<normc::NormSignature>(m, "Signature")
      .def_ro("input", &normc::NormSignature::input)
      .def_ro("output", &normc::NormSignature::output)
      .def_ro("params", &normc::NormSignature::params)
      .def_ro("residual", &normc::NormSignature::residual)
      .def_ro("gamma", &normc::NormSignature::gamma)
      .def_ro("beta", &normc::NormSignature::beta)
      .def_ro("residual_out", &normc::NormSignature::residualOut)
      .def_ro("mean", &normc::NormSignature::mean)
      .def_ro("rstd", &normc::NormSignature::rstd)
      .def_ro("centered", &normc::NormSignature::centered)
      .def_ro("scaled", &normc::NormSignature::scaled)
      .def_ro("gain_offset", &normc::NormSignature::gainOffset)
      .def_ro("quantize_scale", &normc::NormSignature::quantizeScale)
      .def_ro("quantize_block", &normc::NormSignature::quantizeBlock)
      .def_ro("canonical", &normc::NormSignature::canonical);

  // Addresses are integers (tensor.data_ptr()), 0 for an absent argument;
  // strides in elements, 0 for d. An empty schedule means the tuned one.
  nb::class_<normc::Norm>(m, "Kernel")
      .def_prop_ro("name", &normc::Norm::name)
      .def_prop_ro("signature", &normc::Norm::signature)
      .def("forward", &forward, "rows"_a, "d"_a, "x"_a, "x_stride"_a,
           "residual"_a, "residual_stride"_a, "gamma"_a, "beta"_a, "y"_a,
           "residual_out"_a, "mean"_a, "rstd"_a, "stream"_a, "schedule"_a = "",
           "scale"_a = 0, "static_scale"_a = 0, "amax"_a = 0,
           nb::call_guard<nb::gil_scoped_release>())
      .def("backward", &backward, "rows"_a, "d"_a, "x"_a, "x_stride"_a,
           "residual"_a, "residual_stride"_a, "gamma"_a, "dy"_a, "dy_stride"_a,
           "dresidual_out"_a, "dresidual_out_stride"_a, "mean"_a, "rstd"_a,
           "dx"_a, "dresidual"_a, "dgamma"_a, "dbeta"_a, "stream"_a,
           "schedule"_a = "", nb::call_guard<nb::gil_scoped_release>())
      .def("schedules", &normc::Norm::schedules, "d"_a)
      .def("backward_schedules", &normc::Norm::backwardSchedules, "d"_a,
           "saved_stats"_a = false, "dresidual_out"_a = false)
      .def("prepare", &normc::Norm::prepare, "d"_a, "rows"_a,
           nb::call_guard<nb::gil_scoped_release>());

  nb::class_<normc::Runtime>(m, "Runtime")
      .def(
          "__init__",
          [](normc::Runtime *self, const std::string &device, int cudaDevice,
             const std::string &cacheDir, int autotune,
             const std::string &cpuHeaderDir) {
            normc::RuntimeOptions options;
            options.device = parseDevice(device);
            options.cudaDevice = cudaDevice;
            options.cacheDir = cacheDir;
            options.autotune = autotune;
            options.cpuHeaderDir = cpuHeaderDir;
            new (self) normc::Runtime(options);
          },
          "device"_a, "cuda_device"_a = 0, "cache_dir"_a = "",
          "autotune"_a = -1, "cpu_header_dir"_a = "")
      .def_prop_ro("device_name", &normc::Runtime::deviceName)
      .def("load_spec", &loadSpec, "toml"_a, "file_name"_a = "<string>",
           nb::call_guard<nb::gil_scoped_release>())
      .def_static("can_compile_specs", &normc::Runtime::canCompileSpecs);
}
