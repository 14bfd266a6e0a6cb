//===- Module.cpp - normc._normc: the runtime API for Python --------------===//
//
// A thin binding of include/normc/normc.h. Tensors cross as addresses and
// strides (Python checks them, see normc/_op.py), so the extension links no
// part of PyTorch and works with any version of it. Launches release the
// GIL; normc::Error becomes normc.Error (a RuntimeError), a spec that does
// not parse a ValueError with normc's positioned diagnostics.
//
//===----------------------------------------------------------------------===//
#include "normc/Abi/ElementType.h"
#include "normc/normc.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
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

/// Runs `program` on tensors by argument name: (address, row stride in
/// elements, 0 for d); the backward's program is the one whose signature
/// names exactly these arguments.
void run(const normc::Norm &norm, const std::string &program, int64_t rows,
         int64_t d,
         const std::map<std::string, std::pair<uintptr_t, int64_t>> &tensors,
         uintptr_t stream, const std::string &schedule) {
  normc::Arguments a(rows, d);
  for (const auto &[name, tensor] : tensors)
    a.set(name, pointer<const void>(tensor.first), tensor.second);
  void *on = pointer<void>(stream);
  if (program == "forward")
    schedule.empty() ? norm.forward(a, on) : norm.forwardWith(schedule, a, on);
  else
    schedule.empty() ? norm.backward(a, on)
                     : norm.backwardWith(schedule, a, on);
}

/// An argument's dimensions as text: "rows", "d", "groups", "1".
std::vector<std::string> dimsOf(const normc::Argument &argument) {
  std::vector<std::string> out;
  for (normc::Argument::Dim dim : argument.dims)
    out.push_back(dim == normc::Argument::Dim::Rows     ? "rows"
                  : dim == normc::Argument::Dim::D      ? "d"
                  : dim == normc::Argument::Dim::Groups ? "groups"
                                                        : "1");
  return out;
}

} // namespace

NB_MODULE(_normc, m) {
  m.doc() = "normc's runtime: JIT-compiled normalization kernels";
  nb::exception<normc::Error>(m, "Error", PyExc_RuntimeError);
  // Loaded kernels live in module-level caches until the interpreter exits;
  // that is by design, not a leak to report.
  nb::set_leak_warnings(false);

  // The element-type table (normc/Abi/ElementType.h): (name, the torch
  // dtype's attribute or "", bits) for each type, so Python spells no type
  // of its own.
  m.def("element_types", [] {
    std::vector<std::tuple<std::string, std::string, int64_t>> out;
    for (const normc::ElementType &t : normc::allElementTypes())
      out.emplace_back(t.name, t.torchName, t.bits);
    return out;
  });

  // One argument of a program's signature (normc/Abi/Signature.h).
  nb::class_<normc::Argument>(m, "Argument")
      .def_ro("name", &normc::Argument::name)
      .def_ro("element_type", &normc::Argument::elementType)
      .def_prop_ro("dims", &dimsOf)
      .def_ro("group_size", &normc::Argument::groupSize)
      .def_ro("written", &normc::Argument::written)
      .def_ro("strided", &normc::Argument::strided);

  // Addresses are integers (tensor.data_ptr()), 0 for an absent argument;
  // strides in elements, 0 for d. An empty schedule means the tuned one.
  nb::class_<normc::Norm>(m, "Kernel")
      .def_prop_ro("name", &normc::Norm::name)
      .def_prop_ro("canonical", &normc::Norm::canonical)
      .def_prop_ro("gain_offset", &normc::Norm::gainOffset)
      .def("signature", &normc::Norm::signature, "program"_a = "forward",
           nb::call_guard<nb::gil_scoped_release>())
      .def("backward_programs", &normc::Norm::backwardPrograms,
           nb::call_guard<nb::gil_scoped_release>())
      .def("run", &run, "program"_a, "rows"_a, "d"_a, "tensors"_a, "stream"_a,
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
             const std::string &cpuHeaderDir, int reproducible) {
            normc::RuntimeOptions options;
            options.device = parseDevice(device);
            options.cudaDevice = cudaDevice;
            options.cacheDir = cacheDir;
            options.autotune = autotune;
            options.cpuHeaderDir = cpuHeaderDir;
            options.reproducible = reproducible;
            new (self) normc::Runtime(options);
          },
          "device"_a, "cuda_device"_a = 0, "cache_dir"_a = "",
          "autotune"_a = -1, "cpu_header_dir"_a = "", "reproducible"_a = -1)
      .def_prop_ro("device_name", &normc::Runtime::deviceName)
      .def("load_spec", &loadSpec, "toml"_a, "file_name"_a = "<string>",
           nb::call_guard<nb::gil_scoped_release>())
      .def_static("can_compile_specs", &normc::Runtime::canCompileSpecs);
  m.def("cache_dir", &normc::Runtime::defaultCacheDir);
  m.def("clear_cache", &normc::Runtime::clearCache, "cache_dir"_a = "");
}
