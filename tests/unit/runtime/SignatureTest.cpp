//===- SignatureTest.cpp - The signature sizes what the kernels touch -----===//
//
// Every host sizes its buffers from a program's signature (normc run on
// either device, normc-pack-check, the numerics runner, Python), so the
// signature must give each argument exactly the elements its kernels read
// and write. These tests run every program of specs with each kind of
// argument through runOnDevice, the path `normc run` takes on both devices:
// each buffer is followed by a guard that no kernel may write, and every
// output element must have been written. A signature that sized the block
// scales of an fp8 output as one per row would fail here, on the CPU device
// and on a GPU alike.
//
//===----------------------------------------------------------------------===//
#include "normc/Abi/Signature.h"
#include "normc/Abi/ElementType.h"
#include "normc/Dialect/ElementTypes.h"
#include "normc/Runtime/Api/HostRun.h"
#include "normc/Runtime/Cuda/CudaDriver.h"
#include "normc/normc.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <string>

using namespace normc;

namespace {

constexpr char kLayerNorm[] = R"(name = "fused_ln"
[statistics]
center = true
scale = true
[affine]
gain = true
bias = true
[fusion]
residual_add = true
save_stats = true
[dtypes]
input = "bf16"
)";

/// An RMSNorm with an fp8 output and `[quantize]` lines appended.
std::string fp8Spec(const std::string &quantize) {
  return "name = \"fp8\"\n[statistics]\ncenter = false\nscale = true\n"
         "[affine]\ngain = true\nbias = false\n[dtypes]\ninput = \"bf16\"\n"
         "output = \"f8e4m3\"\n[quantize]\n" +
         quantize;
}

/// Random values for every input of `signature` at [rows, d].
struct Inputs {
  std::map<std::string, std::vector<double>> values;
  RunInputs run;

  Inputs(const Signature &signature, int64_t rows, int64_t d) {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> normal(0.0, 1.0);
    run.rows = rows;
    run.d = d;
    for (const Argument &a : signature) {
      if (a.written)
        continue;
      std::vector<double> &v = values[a.name];
      v.resize(size_t(a.elements(rows, d)));
      for (double &e : v) // statistics and scales positive
        e = a.perRow() && a.dims.size() == 2 ? normal(rng)
                                             : 0.5 + std::fabs(normal(rng));
      run.set(a.name, v.data());
    }
  }
};

/// Runs every program of the spec on `device`: the guards hold (runOnDevice
/// throws otherwise) and every output element is written (no NaN left of
/// the poison).
void checkEveryProgram(DeviceKind device, const std::string &toml) {
  RuntimeOptions options;
  options.device = device;
  options.autotune = 0;
  Runtime runtime(options);
  Norm norm = runtime.loadSpecString(toml);
  std::vector<std::string> programs = norm.backwardPrograms();
  programs.insert(programs.begin(), "forward");
  // No rows too: every [rows, ...] buffer then has no bytes and no pointer,
  // and only the sums over rows are written (normc-pack-check's matrix).
  for (const std::string &program : programs)
    for (auto [rows, d] :
         {std::pair<int64_t, int64_t>{3, 200}, {3, 64}, {0, 64}}) {
      SCOPED_TRACE(program + " at rows = " + std::to_string(rows) +
                   ", d = " + std::to_string(d));
      Signature signature = norm.signature(program);
      Inputs in(signature, rows, d);
      RunOutputs out;
      ASSERT_NO_THROW(out = runOnDevice(norm, program, in.run));
      for (const Argument &a : signature) {
        if (!a.written)
          continue;
        const std::vector<double> &got = out[a.name];
        ASSERT_EQ(got.size(), size_t(a.elements(rows, d))) << a.name;
        for (size_t i = 0; i < got.size(); ++i)
          ASSERT_FALSE(std::isnan(got[i]))
              << a.name << " " << shapeText(a) << ": element " << i << " of "
              << got.size() << " never written";
      }
    }
}

const std::vector<std::string> &specsWithEveryKindOfArgument() {
  static const std::vector<std::string> specs = {
      kLayerNorm, fp8Spec("scale = \"row\"\n"),
      fp8Spec("scale = \"block\"\nblock = 64\n"),
      fp8Spec("scale = \"static\"\n")};
  return specs;
}

TEST(Signature, SizesWhatTheKernelsWriteOnTheCpuDevice) {
  for (const std::string &spec : specsWithEveryKindOfArgument())
    checkEveryProgram(DeviceKind::Cpu, spec);
}

TEST(Signature, SizesWhatTheKernelsWriteOnAGpu) {
  std::string why;
  if (!cuda::available(&why))
    GTEST_SKIP() << "no CUDA GPU: " << why;
  for (const std::string &spec : specsWithEveryKindOfArgument())
    checkEveryProgram(DeviceKind::Cuda, spec);
}

TEST(Signature, BlockScalesAreARowOfGroups) {
  RuntimeOptions options;
  options.device = DeviceKind::Cpu;
  Runtime runtime(options);
  Signature s =
      runtime.loadSpecString(fp8Spec("scale = \"block\"\nblock = 64\n"))
          .signature();
  const Argument *scale = findArgument(s, "scale");
  ASSERT_NE(scale, nullptr);
  EXPECT_TRUE(scale->written);
  EXPECT_EQ(scale->shape(5, 200), (std::vector<int64_t>{5, 4}));
  EXPECT_EQ(scale->bytes(5, 200), 5 * 4 * 4);
  EXPECT_EQ(shapeText(*scale), "[rows, ceil(d / 64)]");
}

/// A hand-made kernel sequence: a forward-and-finish pair exchanging
/// partial sums.
std::vector<KernelLaunchInfo> twoKernels() {
  using Kind = KernelParam::Kind;
  KernelLaunchInfo first, second;
  first.params = {{Kind::Rows, "x", "bf16", false},
                  {Kind::RowStride, "x_stride", "", false},
                  {Kind::Features, "gamma", "f32", false},
                  {Kind::Partials, "dgamma_partials", "f32", true},
                  {Kind::Groups, "scale", "f32", true},
                  {Kind::RowCount, "rows", "", false}};
  first.groupSize = 16;
  second.params = {{Kind::Partials, "dgamma_partials", "f32", false},
                   {Kind::Features, "dgamma", "f32", true},
                   {Kind::D, "d", "", false}};
  return {first, second};
}

TEST(Signature, ReadOffTheKernelsWithoutTheirWorkspace) {
  Signature s = signatureOf(twoKernels());
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].name, "x");
  EXPECT_TRUE(s[0].strided);
  EXPECT_FALSE(s[0].written);
  EXPECT_EQ(s[1].name, "gamma");
  EXPECT_FALSE(s[1].strided);
  EXPECT_EQ(s[2].name, "scale");
  EXPECT_EQ(s[2].groupSize, 16);
  EXPECT_EQ(s[2].shape(2, 33), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(s[3].name, "dgamma");
  EXPECT_TRUE(s[3].written);
  EXPECT_EQ(findArgument(s, "dgamma_partials"), nullptr);
  // A strided argument spans its last row's d elements past the others'
  // strides.
  EXPECT_EQ(s[0].elements(3, 10, 16), 2 * 16 + 10);
  EXPECT_EQ(s[0].bytes(3, 10), 3 * 10 * 2);
  EXPECT_EQ(s[0].bytes(0, 10), 0);
}

TEST(Signature, PackedTypesRoundUpToWholeBytes) {
  ElementType nibble = *elementTypeNamed("f4e2m1");
  EXPECT_TRUE(nibble.packed());
  EXPECT_EQ(nibble.bytesFor(1), 1);
  EXPECT_EQ(nibble.bytesFor(2), 1);
  EXPECT_EQ(nibble.bytesFor(3), 2);
  EXPECT_EQ(elementTypeNamed("bf16")->bits, 16);
  EXPECT_EQ(elementTypeNamed("f8e5m2")->bytesFor(5), 5);
  EXPECT_FALSE(elementTypeNamed("int3").has_value());
}

// The IR's element types are MLIR's builtin types, named by the table both
// ways: what the spec builder creates reads back as the same name in the
// launch facts.
TEST(Signature, EveryElementTypeIsOneOfMlirsTypes) {
  mlir::MLIRContext context;
  for (const ElementType &t : allElementTypes()) {
    mlir::Type type = getElementTypeNamed(&context, t.name);
    ASSERT_TRUE(type) << t.name;
    EXPECT_EQ(getElementTypeName(type), t.name);
  }
  EXPECT_FALSE(getElementTypeNamed(&context, "f7"));
}

// Where the IR may hold a type is the table's roles, and the verifiers'
// messages list the table's types: a new row needs no new constraint.
TEST(Signature, TheIrAcceptsATypeForTheTablesRoles) {
  mlir::MLIRContext context;
  for (const ElementType &t : allElementTypes()) {
    mlir::Type type = getElementTypeNamed(&context, t.name);
    for (unsigned role : {ElementType::Storage, ElementType::Quantized,
                          ElementType::Accumulate})
      EXPECT_EQ(hasElementRole(type, role), t.hasRole(role)) << t.name;
  }
  EXPECT_FALSE(hasElementRole(mlir::IntegerType::get(&context, 32),
                              ElementType::Accumulate));
  EXPECT_EQ(elementTypesWithRole(ElementType::Storage | ElementType::Quantized,
                                 &ElementType::mlirName),
            "f32, f16, bf16, f8E4M3FN, f8E5M2 or i8");
  EXPECT_EQ(elementTypesWithRole(ElementType::Accumulate),
            "f64, f32, f16 or bf16");
}

// A .npy code is numpy's kind letter and the width in bytes.
TEST(Signature, NpyCodesAreTheKindAndTheBytes) {
  for (const ElementType &t : allElementTypes()) {
    if (t.npyCode.empty())
      continue;
    char kind = t.encoding == ElementType::Encoding::Integer ? 'i' : 'f';
    EXPECT_EQ(t.npyCode, kind + std::to_string(t.bytesFor(1))) << t.name;
    EXPECT_FALSE(t.packed()) << t.name;
  }
  EXPECT_EQ(elementTypeNamed("f32")->npyCode, "f4");
  EXPECT_EQ(elementTypeNamed("bf16")->npyCode, ""); // numpy has no bfloat16
}

// Each range follows from the encoding; these are the formats' published
// limits (IEEE 754, OCP FP8 and MX).
TEST(Signature, ElementRangesFollowFromTheEncoding) {
  auto largest = [](std::string_view n) {
    return elementTypeNamed(n)->largestFinite();
  };
  auto smallest = [](std::string_view n) {
    return elementTypeNamed(n)->smallestPositive();
  };
  EXPECT_EQ(largest("f64"), std::numeric_limits<double>::max());
  EXPECT_EQ(largest("f32"), std::numeric_limits<float>::max());
  EXPECT_EQ(largest("f16"), 65504);
  EXPECT_EQ(largest("bf16"), std::ldexp(255.0, 120));
  EXPECT_EQ(largest("f8e4m3"), 448);
  EXPECT_EQ(largest("f8e5m2"), 57344);
  EXPECT_EQ(largest("f8e8m0"), std::ldexp(1.0, 127));
  EXPECT_EQ(largest("f4e2m1"), 6);
  EXPECT_EQ(largest("i8"), 127);
  EXPECT_EQ(smallest("f64"), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(smallest("f32"), std::numeric_limits<float>::denorm_min());
  EXPECT_EQ(smallest("f16"), std::ldexp(1.0, -24));
  EXPECT_EQ(smallest("bf16"), std::ldexp(1.0, -133));
  EXPECT_EQ(smallest("f8e4m3"), std::ldexp(1.0, -9));
  EXPECT_EQ(smallest("f8e5m2"), std::ldexp(1.0, -16));
  EXPECT_EQ(smallest("f8e8m0"), std::ldexp(1.0, -127));
  EXPECT_EQ(smallest("f4e2m1"), 0.5);
  EXPECT_EQ(smallest("i8"), 1);
  std::set<std::string_view> names;
  for (const ElementType &t : allElementTypes()) {
    EXPECT_TRUE(names.insert(t.name).second) << t.name;
    EXPECT_FALSE(t.cudaName.empty()) << t.name;
    EXPECT_EQ(elementTypeNamed(t.name)->bits, t.bits);
  }
  EXPECT_EQ(names.size(), 9u);
}

TEST(Signature, MismatchesNameWhatToPassOrDrop) {
  Signature s = signatureOf(twoKernels());
  Mismatch fits = mismatchOf(s, {"x", "gamma", "scale", "dgamma"});
  EXPECT_TRUE(fits.fits());
  EXPECT_EQ(fits.str(), "");
  Mismatch lacks = mismatchOf(s, {"x", "scale", "dgamma"});
  EXPECT_EQ(lacks.str(), "needs 'gamma' [d] f32");
  Mismatch extra = mismatchOf(s, {"x", "gamma", "scale", "dgamma", "z"});
  EXPECT_EQ(extra.str(), "takes no argument 'z'");
  EXPECT_EQ(extra.count, 1u);
  // Of two programs, the one the call lacks an argument of is nearer than
  // one it gives a name too many, at the same count.
  Signature fewer = s, more = s;
  fewer.pop_back();
  more.push_back({"z", "f32", {Argument::Dim::Rows}, 0, false, false});
  std::set<std::string> given = {"x", "gamma", "scale", "dgamma"};
  EXPECT_EQ(nearestSignature({&fewer, &more}, given), 1u);
  EXPECT_EQ(nearestSignature({&fewer, &s, &more}, given), 1u);
}

} // namespace
