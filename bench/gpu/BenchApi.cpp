//===- BenchApi.cpp - normc's runtime as a C library for bench/gpu --------===//
//
// bench/gpu/bench.py times every implementation with one harness (CUDA
// events, the L2 flushed, the median of many runs) on tensors PyTorch
// allocates, forward and backward; it reaches normc through these few C
// functions (ctypes), on
// a machine with the runtime-only build and kernel packs but no compiler.
// Errors come back as text in `error` (a buffer of `errorSize` bytes) and a
// nonzero return, never as exceptions across the C boundary.
//
//===----------------------------------------------------------------------===//
#include "normc/normc.h"

#include <cstring>
#include <memory>
#include <string>

namespace {
struct Handle {
  normc::Runtime runtime;
  normc::Norm norm;
};

int fail(char *error, int errorSize, const std::string &message) {
  if (error && errorSize > 0) {
    std::strncpy(error, message.c_str(), static_cast<size_t>(errorSize) - 1);
    error[errorSize - 1] = '\0';
  }
  return 1;
}

template <class F> int guarded(char *error, int errorSize, F body) {
  try {
    body();
    return 0;
  } catch (const std::exception &e) {
    return fail(error, errorSize, e.what());
  }
}
} // namespace

extern "C" {

/// Loads the pack in `packDir` on `device` ("cpu", "cuda" or "auto"),
/// tuning each new shape when `autotune` is 1; null on failure.
__attribute__((visibility("default"))) void *
normc_bench_open(const char *packDir, const char *device, const char *cacheDir,
                 int autotune, char *error, int errorSize) {
  Handle *handle = nullptr;
  guarded(error, errorSize, [&] {
    normc::RuntimeOptions options;
    std::string where = device ? device : "auto";
    options.device = where == "cpu"    ? normc::DeviceKind::Cpu
                     : where == "cuda" ? normc::DeviceKind::Cuda
                                       : normc::DeviceKind::Auto;
    options.cacheDir = cacheDir ? cacheDir : "";
    options.autotune = autotune;
    auto made = std::make_unique<Handle>(
        Handle{normc::Runtime(options), normc::Norm(nullptr)});
    made->norm = made->runtime.loadPack(packDir);
    handle = made.release();
  });
  return handle;
}

__attribute__((visibility("default"))) void normc_bench_close(void *handle) {
  delete static_cast<Handle *>(handle);
}

/// Makes the kernel for (d, rows) ready (tuning it on CUDA); writes its
/// schedule into `schedule`.
__attribute__((visibility("default"))) int
normc_bench_prepare(void *handle, long long d, long long rows, char *schedule,
                    int scheduleSize, char *error, int errorSize) {
  return guarded(error, errorSize, [&] {
    std::string chosen = static_cast<Handle *>(handle)->norm.prepare(d, rows);
    fail(schedule, scheduleSize, chosen);
  });
}

/// Runs `program` ("forward", or the backward: Norm::backward picks the
/// backward program whose signature names exactly these arguments) on
/// `count` contiguous tensors named `names`, at `pointers`. `stream` is a
/// CUstream (null: the default one). The first call for a shape tunes it on
/// CUDA.
__attribute__((visibility("default"))) int
normc_bench_run(void *handle, const char *program, int count,
                const char *const *names, void *const *pointers, long long rows,
                long long d, void *stream, char *error, int errorSize) {
  return guarded(error, errorSize, [&] {
    normc::Arguments a(rows, d);
    for (int i = 0; i < count; ++i)
      a.set(names[i], pointers[i]);
    const normc::Norm &norm = static_cast<Handle *>(handle)->norm;
    if (std::string(program) == "forward")
      norm.forward(a, stream);
    else
      norm.backward(a, stream);
  });
}
}
