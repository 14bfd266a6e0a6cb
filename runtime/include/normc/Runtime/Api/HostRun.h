//===- HostRun.h - Run a program of a Norm on arrays of doubles -----------===//
//
// The one path by which `normc run` (either device), normc-pack-check and the
// numerics tests hand values to kernels and read them back: every argument is
// named, shaped and sized by the program's signature, so none of them lists
// the buffers a spec has.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_RUNTIME_HOSTRUN_H
#define NORMC_RUNTIME_HOSTRUN_H

#include "normc/normc.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace normc {

/// Host values of one argument, as doubles; for a strided argument its row
/// stride in elements (0: d).
struct HostArray {
  const double *data = nullptr;
  int64_t rowStride = 0;
};

/// The inputs of a run by the names of the program's signature, rounded to
/// each argument's element type before the kernels read them. A null array
/// is an absent one; arrays of names the program does not read are ignored.
struct RunInputs {
  int64_t rows = 0;
  int64_t d = 0;
  std::map<std::string, HostArray> arrays;

  RunInputs &set(const std::string &name, const double *data,
                 int64_t rowStride = 0) {
    arrays[name] = HostArray{data, rowStride};
    return *this;
  }
  /// The values of `name`, null when absent.
  const double *get(const std::string &name) const {
    auto it = arrays.find(name);
    return it == arrays.end() ? nullptr : it->second.data;
  }
};

/// Every output of a run (as the signature shapes it, row-major), as
/// doubles, by name.
struct RunOutputs {
  std::map<std::string, std::vector<double>> arrays;

  /// The output `name`; empty when the kernels write none.
  const std::vector<double> &operator[](const std::string &name) const {
    static const std::vector<double> none;
    auto it = arrays.find(name);
    return it == arrays.end() ? none : it->second;
  }
};

/// Runs one program of `norm` ("forward" through Norm::forward, a backward
/// through Norm::backward with exactly that program's arguments; with
/// `schedule`, forwardWith/backwardWith) on its device, the CPU device or a
/// GPU alike: each argument of the program's signature is allocated on the
/// device at the size the signature gives, inputs uploaded rounded to their
/// element types, outputs first filled with NaN and read back when the
/// kernels are done. Throws normc::Error.
RunOutputs runOnDevice(const Norm &norm, const std::string &program,
                       const RunInputs &inputs,
                       const std::string &schedule = "");

} // namespace normc

#endif // NORMC_RUNTIME_HOSTRUN_H
