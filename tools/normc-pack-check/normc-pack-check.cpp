//===- normc-pack-check.cpp - Every kernel of a pack against the reference ===//
//
//   normc-pack-check [--device=auto|cpu|cuda] [--rows=N] PACK_DIR...
//
// For each pack (normc compile --emit=pack), runs every schedule candidate
// of the forward and of the backward through the public API
// (Norm::forwardWith, Norm::backwardWith) on seeded inputs, with every
// output first filled with NaN, and grades it against the float64
// reference (contract sections 4 and 5); the backward runs twice, and its
// dgamma and dbeta must be the same bits both times. Prints one line per
// candidate and a summary; exits 1 when any candidate breaks the bound or fails
// to run. Needs no LLVM: it is built by the runtime-only build too, for GPU
// machines (scripts/gpu-check.sh).
//
//===----------------------------------------------------------------------===//
#include "normc/Dsl/Spec.h"
#include "normc/Reference/Gradient.h"
#include "normc/Runtime/CudaDriver.h"
#include "normc/Runtime/HostData.h"
#include "normc/Runtime/Pack.h"
#include "normc/normc.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace normc;

namespace {

/// A buffer of the spec's type on the device the runtime uses.
class DeviceArray {
public:
  DeviceArray(bool cuda, std::string type, const std::vector<double> &values)
      : type(std::move(type)), count(values.size()),
        bytes(host::encode(this->type, values.data(), count)) {
    if (cuda) {
      device = std::make_unique<cuda::Buffer>(0, bytes.size());
      device->upload(bytes.data(), bytes.size());
    }
  }
  void *data() {
    return device ? device->get() : static_cast<void *>(bytes.data());
  }
  std::vector<double> values() {
    if (device)
      device->download(bytes.data(), bytes.size());
    return host::decode(type, bytes.data(), count);
  }

private:
  std::string type;
  size_t count;
  std::vector<unsigned char> bytes;
  std::unique_ptr<cuda::Buffer> device;
};

std::vector<double> draw(std::mt19937_64 &rng, size_t count, dsl::DType type,
                         double mean, double std) {
  std::normal_distribution<double> normal(mean, std);
  std::vector<double> v(count);
  for (double &e : v)
    e = reference::roundTo(type, normal(rng));
  return v;
}

/// `conditioning`, when not empty, holds each element's second term of the
/// bound (reference::Outputs::yConditioning).
double worstOf(const std::vector<double> &got, const std::vector<double> &ref,
               dsl::DType type, const std::vector<double> &conditioning = {}) {
  double worst = 0;
  for (size_t i = 0; i < ref.size(); ++i)
    worst = std::max(worst, reference::errorFraction(
                                got[i], ref[i], type,
                                conditioning.empty() ? 0 : conditioning[i]));
  return worst;
}

struct Tally {
  int passed = 0, failed = 0;
  void count(bool ok, const std::string &what, const std::string &note,
             double worst) {
    ok ? ++passed : ++failed;
    std::printf("%-4s %s: %s\n", ok ? "ok" : "FAIL", what.c_str(),
                note.empty() ? (std::to_string(worst) + " of the bound").c_str()
                             : note.c_str());
  }
};

/// A shared-memory row that does not fit the device at this d is refused at
/// load, as the tuner refuses it: not a wrong kernel.
bool refusedForSharedMemory(const std::string &note) {
  return note.find("shared memory") != std::string::npos;
}

/// The worst gradient error of a backward's outputs (contract section 5).
double worstGradient(const dsl::Spec &spec, const reference::Gradients &ref,
                     const std::vector<double> &dx,
                     const std::vector<double> &dresidual,
                     const std::vector<double> &dgamma,
                     const std::vector<double> &dbeta) {
  double worst = 0;
  auto dxWorst = [&](const std::vector<double> &v) {
    for (size_t i = 0; i < ref.dx.size(); ++i)
      worst = std::max(worst, reference::dxErrorFraction(v[i], ref.dx[i],
                                                         ref.dxScale[i],
                                                         spec.input.value));
  };
  dxWorst(dx);
  if (spec.residualAdd.value)
    dxWorst(dresidual);
  for (size_t i = 0; i < ref.dgamma.size(); ++i)
    worst = std::max(worst, reference::paramGradErrorFraction(
                                dgamma[i], ref.dgamma[i], ref.dgammaScale[i],
                                spec.params.value, ref.dgammaConditioning[i]));
  for (size_t i = 0; i < ref.dbeta.size(); ++i)
    worst = std::max(worst, reference::paramGradErrorFraction(
                                dbeta[i], ref.dbeta[i], ref.dbetaScale[i],
                                spec.params.value));
  return worst;
}

/// Runs every candidate of one pack at hidden size d; returns the tally.
Tally checkPack(const std::string &dir, Runtime &runtime, int64_t rows) {
  Tally tally;
  Pack pack = readPack(dir);
  dsl::SpecParseResult parsed =
      dsl::parseSpecString(pack.specToml, dir + "/spec.toml");
  if (!parsed.spec) {
    std::printf("%s: error: the pack's spec does not parse\n", dir.c_str());
    ++tally.failed;
    return tally;
  }
  const dsl::Spec &spec = *parsed.spec;
  Norm norm = runtime.loadPack(dir);
  // A pack for d at run time is checked at an odd d.
  int64_t d = pack.cols.value_or(1001);
  bool cuda = runtime.device() == DeviceKind::Cuda;
  std::mt19937_64 rng(17);
  std::string input(dsl::toString(spec.input.value)),
      output(dsl::toString(spec.output.value)),
      params(dsl::toString(spec.params.value));
  std::vector<double> x = draw(rng, rows * d, spec.input.value, 0, 1), r, gamma,
                      beta;
  if (spec.residualAdd.value)
    r = draw(rng, rows * d, spec.input.value, 0, 1);
  if (spec.gain.value)
    gamma = draw(rng, d, spec.params.value, 1, 0.1);
  if (spec.bias.value)
    beta = draw(rng, d, spec.params.value, 0, 0.1);
  reference::Inputs in;
  in.x = x.data();
  in.residual = r.empty() ? nullptr : r.data();
  in.gamma = gamma.empty() ? nullptr : gamma.data();
  in.beta = beta.empty() ? nullptr : beta.data();
  in.rows = rows;
  in.d = d;
  in.xStride = in.residualStride = d;
  reference::Outputs ref = reference::evaluate(spec, in);

  std::vector<double> nanRows(rows * d,
                              std::numeric_limits<double>::quiet_NaN());
  std::vector<double> nanStats(rows, std::numeric_limits<double>::quiet_NaN());
  for (const std::string &schedule : norm.schedules(d)) {
    double worst = 0;
    std::string note;
    try {
      DeviceArray dx(cuda, input, x), dr(cuda, input, r),
          dg(cuda, params, gamma), db(cuda, params, beta),
          dy(cuda, output, nanRows),
          dh(cuda, input,
             spec.residualAdd.value ? nanRows : std::vector<double>()),
          dmean(cuda, "f32", nanStats), drstd(cuda, "f32", nanStats);
      ForwardArgs a;
      a.rows = rows;
      a.d = d;
      a.x = dx.data();
      a.residual = r.empty() ? nullptr : dr.data();
      a.gamma = gamma.empty() ? nullptr : dg.data();
      a.beta = beta.empty() ? nullptr : db.data();
      a.y = dy.data();
      a.residualOut = spec.residualAdd.value ? dh.data() : nullptr;
      a.mean = spec.saveStats.value && spec.center.value
                   ? static_cast<float *>(dmean.data())
                   : nullptr;
      a.rstd =
          spec.saveStats.value ? static_cast<float *>(drstd.data()) : nullptr;
      norm.forwardWith(schedule, a);
      if (cuda)
        cuda::synchronize();
      worst = worstOf(dy.values(), ref.y, spec.output.value, ref.yConditioning);
      if (spec.residualAdd.value)
        worst = std::max(
            worst, worstOf(dh.values(), ref.residualOut, spec.input.value));
      if (a.mean)
        worst =
            std::max(worst, worstOf(dmean.values(), ref.mean, dsl::DType::F32));
      if (a.rstd)
        worst =
            std::max(worst, worstOf(drstd.values(), ref.rstd, dsl::DType::F32));
    } catch (const std::exception &error) {
      note = error.what();
    }
    tally.count(refusedForSharedMemory(note) || (note.empty() && worst <= 1.0),
                spec.name.value + " d=" + std::to_string(d) + " " + schedule,
                note, worst);
  }

  // The backward, from dy ~ N(0, 1) in the output type.
  std::vector<double> dyValues = draw(rng, rows * d, spec.output.value, 0, 1);
  reference::GradientInputs gradIn;
  gradIn.forward = in;
  gradIn.dy = dyValues.data();
  reference::Gradients gradRef = reference::evaluateGradient(spec, gradIn);
  std::vector<double> nanFeatures(d, std::numeric_limits<double>::quiet_NaN());
  for (const std::string &schedule : norm.backwardSchedules(d)) {
    double worst = 0;
    std::string note;
    try {
      DeviceArray dx(cuda, input, x), dr(cuda, input, r),
          dg(cuda, params, gamma), dyIn(cuda, output, dyValues);
      std::vector<double> firstBits;
      for (int run = 0; run < 2; ++run) {
        DeviceArray gx(cuda, input, nanRows),
            gr(cuda, input,
               spec.residualAdd.value ? nanRows : std::vector<double>()),
            gg(cuda, params,
               spec.gain.value ? nanFeatures : std::vector<double>()),
            gb(cuda, params,
               spec.bias.value ? nanFeatures : std::vector<double>());
        BackwardArgs b;
        b.rows = rows;
        b.d = d;
        b.x = dx.data();
        b.residual = r.empty() ? nullptr : dr.data();
        b.gamma = gamma.empty() ? nullptr : dg.data();
        b.dy = dyIn.data();
        b.dx = gx.data();
        b.dresidual = spec.residualAdd.value ? gr.data() : nullptr;
        b.dgamma = spec.gain.value ? gg.data() : nullptr;
        b.dbeta = spec.bias.value ? gb.data() : nullptr;
        norm.backwardWith(schedule, b);
        if (cuda)
          cuda::synchronize();
        std::vector<double> dgamma = gg.values(), dbeta = gb.values();
        worst = std::max(worst, worstGradient(spec, gradRef, gx.values(),
                                              gr.values(), dgamma, dbeta));
        dgamma.insert(dgamma.end(), dbeta.begin(), dbeta.end());
        if (run == 0)
          firstBits = dgamma;
        else if (std::memcmp(firstBits.data(), dgamma.data(),
                             dgamma.size() * sizeof(double)) != 0)
          note = "dgamma/dbeta differ between two runs";
      }
    } catch (const std::exception &error) {
      note = error.what();
    }
    tally.count(refusedForSharedMemory(note) || (note.empty() && worst <= 1.0),
                spec.name.value + " backward d=" + std::to_string(d) + " " +
                    schedule,
                note, worst);
  }
  return tally;
}

} // namespace

int main(int argc, char **argv) {
  RuntimeOptions options;
  options.autotune = 0;
  int64_t rows = 37;
  std::vector<std::string> packs;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--device=cpu")
      options.device = DeviceKind::Cpu;
    else if (arg == "--device=cuda")
      options.device = DeviceKind::Cuda;
    else if (arg.rfind("--rows=", 0) == 0)
      rows = std::max(1LL, std::atoll(arg.c_str() + 7));
    else if (arg == "--device=auto")
      continue;
    else if (!arg.empty() && arg[0] != '-')
      packs.push_back(arg);
    else {
      std::fprintf(stderr,
                   "usage: %s [--device=auto|cpu|cuda] [--rows=N] PACK...\n",
                   argv[0]);
      return 2;
    }
  }
  if (packs.empty()) {
    std::fprintf(stderr, "%s: error: no pack given\n", argv[0]);
    return 2;
  }
  try {
    Runtime runtime(options);
    std::printf("device: %s\n", runtime.deviceName().c_str());
    Tally total;
    for (const std::string &pack : packs) {
      Tally t = checkPack(pack, runtime, rows);
      total.passed += t.passed;
      total.failed += t.failed;
    }
    std::printf("summary: %d candidate kernels keep the bound, %d fail\n",
                total.passed, total.failed);
    return total.failed ? 1 : 0;
  } catch (const std::exception &error) {
    std::fprintf(stderr, "%s: error: %s\n", argv[0], error.what());
    return 1;
  }
}
