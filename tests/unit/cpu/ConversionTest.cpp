//===- ConversionTest.cpp - Conversions in CPU-compiled code --------------===//
//
// Kernels convert with the toolkit's own host implementations; they must
// round like the GPU. References: bf16 by the bit trick, half by searching
// all representable halves, fp8, fp4 and the E8M0 scale by the reference's
// rounding.
//
//===----------------------------------------------------------------------===//

#include "CpuTestUtil.h"
#include "normc/Reference/Reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace normc::cpu;
using namespace normc::cpu::test;

namespace {

const char *kConvert = R"(
#include <cstring>
NORMC_KERNEL(128, convert)(const float *__restrict__ in,
                           unsigned short *__restrict__ bf16,
                           unsigned short *__restrict__ half, float *back,
                           long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __nv_bfloat16 b = __float2bfloat16_rn(in[i]);
  __half h = __float2half_rn(in[i]);
  std::memcpy(&bf16[i], &b, 2);
  std::memcpy(&half[i], &h, 2);
  back[2 * i] = __bfloat162float(b);
  back[2 * i + 1] = __half2float(h);
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_convert(void **args) {
  NORMC_CPU_KERNEL(convert)(*reinterpret_cast<const float *const *>(args[0]),
          *reinterpret_cast<unsigned short *const *>(args[1]),
          *reinterpret_cast<unsigned short *const *>(args[2]),
          *reinterpret_cast<float *const *>(args[3]),
          *reinterpret_cast<const long long *>(args[4]));
}
#endif
)";

/// The value of a finite half, with the infinity pattern read as 65536 so
/// that overflow rounds like any other step.
double halfValue(unsigned bits) {
  unsigned exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  double magnitude = exponent == 0
                         ? std::ldexp(mantissa, -24)
                         : std::ldexp(1024 + mantissa, int(exponent) - 25);
  return bits & 0x8000 ? -magnitude : magnitude;
}

std::uint16_t halfReference(float value) {
  if (std::isnan(value))
    return 0x7fff; // any NaN; compared by class below
  static const std::vector<double> positives = [] {
    std::vector<double> v;
    for (unsigned bits = 0; bits <= 0x7c00; ++bits)
      v.push_back(halfValue(bits));
    return v;
  }();
  double magnitude = std::fabs(static_cast<double>(value));
  unsigned sign = std::signbit(value) ? 0x8000 : 0;
  if (magnitude >= 65536.0)
    return static_cast<std::uint16_t>(sign | 0x7c00);
  auto above = std::lower_bound(positives.begin(), positives.end(), magnitude);
  unsigned hi = static_cast<unsigned>(above - positives.begin());
  if (positives[hi] == magnitude || hi == 0)
    return static_cast<std::uint16_t>(sign | hi);
  unsigned lo = hi - 1;
  double down = magnitude - positives[lo], up = positives[hi] - magnitude;
  unsigned nearest = down < up ? lo : up < down ? hi : (lo % 2 ? hi : lo);
  return static_cast<std::uint16_t>(sign | nearest);
}

std::vector<float> testValues() {
  std::vector<float> values = {
      0.0f, -0.0f, 1.0f, -1.0f,
      // bf16 ties: halfway between neighbours, even and odd below.
      1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, -(1.0f + 0x1p-8f),
      // half ties, overflow boundary, subnormals.
      1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, 65504.0f, 65519.9f, 65520.0f,
      0x1p-24f, 0x1p-25f, 3 * 0x1p-26f, 0x1p-133f,
      std::numeric_limits<float>::max(), std::numeric_limits<float>::min(),
      std::numeric_limits<float>::denorm_min(),
      std::numeric_limits<float>::infinity(),
      -std::numeric_limits<float>::infinity(),
      std::numeric_limits<float>::quiet_NaN()};
  std::mt19937 random(7);
  std::uniform_int_distribution<std::uint32_t> anyBits;
  std::uniform_real_distribution<float> moderate(-70000.0f, 70000.0f);
  for (int i = 0; i < 20000; ++i) {
    std::uint32_t bits = anyBits(random);
    float value;
    std::memcpy(&value, &bits, sizeof value);
    values.push_back(value);
    values.push_back(moderate(random));
  }
  return values;
}

TEST(ConversionTest, Bf16AndHalfRoundToNearestEven) {
  CpuKernel kernel = compileKernel(kConvert, "convert");
  std::vector<float> in = testValues();
  long long n = static_cast<long long>(in.size());
  std::vector<std::uint16_t> bf16(in.size()), half(in.size());
  std::vector<float> back(2 * in.size());
  const float *inPtr = in.data();
  std::uint16_t *bf16Ptr = bf16.data(), *halfPtr = half.data();
  float *backPtr = back.data();
  void *args[] = {&inPtr, &bf16Ptr, &halfPtr, &backPtr, &n};
  launch(kernel, Dim3{static_cast<unsigned>((n + 127) / 128)}, Dim3{128}, 0,
         args, withOrder(LaneOrder::Forward, 2));

  for (std::size_t i = 0; i < in.size(); ++i) {
    float value = in[i];
    if (std::isnan(value)) {
      EXPECT_TRUE(std::isnan(back[2 * i]) && std::isnan(back[2 * i + 1]));
      continue;
    }
    ASSERT_EQ(bf16[i], bf16FromFloat(value)) << std::hexfloat << value;
    ASSERT_EQ(half[i], halfReference(value)) << std::hexfloat << value;
    ASSERT_EQ(back[2 * i], floatFromBf16(bf16[i])) << std::hexfloat << value;
    double halfBack = (half[i] & 0x7fff) == 0x7c00
                          ? std::copysign(HUGE_VAL, halfValue(half[i]))
                          : halfValue(half[i]);
    ASSERT_EQ(static_cast<double>(back[2 * i + 1]), halfBack)
        << std::hexfloat << value;
  }
}

const char *kConvertFp8 = R"(
#include <cuda_fp8.h>
NORMC_KERNEL(128, convert_fp8)(const float *__restrict__ in,
                               float *__restrict__ e4m3,
                               float *__restrict__ e5m2, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // What an fp8 output will store: saturating, to nearest even; read back
  // exactly through half.
  __half_raw a = __nv_cvt_fp8_to_halfraw(
      __nv_cvt_float_to_fp8(in[i], __NV_SATFINITE, __NV_E4M3), __NV_E4M3);
  __half_raw b = __nv_cvt_fp8_to_halfraw(
      __nv_cvt_float_to_fp8(in[i], __NV_SATFINITE, __NV_E5M2), __NV_E5M2);
  e4m3[i] = __half2float(__half(a));
  e5m2[i] = __half2float(__half(b));
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_convert_fp8(void **args) {
  NORMC_CPU_KERNEL(convert_fp8)(
      *reinterpret_cast<const float *const *>(args[0]),
      *reinterpret_cast<float *const *>(args[1]),
      *reinterpret_cast<float *const *>(args[2]),
      *reinterpret_cast<const long long *>(args[3]));
}
#endif
)";

TEST(ConversionTest, Fp8RoundsLikeTheReference) {
  // The toolkit's host conversions (what the CPU device will run for fp8
  // outputs) against the reference's rounding: every value of each format,
  // the midpoints between neighbours and just beside them, values beyond
  // the largest, specials, and random floats over the whole range.
  using normc::dsl::DType;
  std::vector<float> in = {0.0f, -0.0f, INFINITY, -INFINITY,
                           NAN,  1e30f, -1e30f,   1e-30f};
  for (DType format : {DType::F8E4M3, DType::F8E5M2}) {
    double max = normc::dsl::largestFinite(format);
    // Every value is m * 2^e with m < 16 (a significand of at most 4 bits).
    std::vector<double> values;
    for (int e = -20; e <= 16; ++e)
      for (int m = 0; m < 16; ++m) {
        double v = std::ldexp(m, e);
        if (v <= max && normc::reference::roundTo(format, v) == v)
          values.push_back(v);
      }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    EXPECT_EQ(values.size(), format == DType::F8E4M3 ? 127u : 124u);
    for (std::size_t i = 0; i < values.size(); ++i) {
      std::vector<double> points = {values[i]};
      if (i + 1 < values.size())
        points.push_back((values[i] + values[i + 1]) / 2);
      for (double m : points)
        for (float f : {float(m), std::nextafter(float(m), 0.0f),
                        std::nextafter(float(m), INFINITY)})
          in.insert(in.end(), {f, -f});
    }
    in.insert(in.end(), {float(max * 1.0625), float(max * 1.2)});
  }
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> exponent(-20, 18);
  for (int i = 0; i < 20000; ++i)
    in.push_back(std::exp2(exponent(rng)) * (i % 2 ? 1 : -1));

  CpuKernel kernel = compileKernel(kConvertFp8, "convert_fp8");
  long long n = static_cast<long long>(in.size());
  std::vector<float> e4m3(in.size()), e5m2(in.size());
  const float *inPtr = in.data();
  float *e4m3Ptr = e4m3.data(), *e5m2Ptr = e5m2.data();
  void *args[] = {&inPtr, &e4m3Ptr, &e5m2Ptr, &n};
  launch(kernel, Dim3{static_cast<unsigned>((n + 127) / 128)}, Dim3{128}, 0,
         args, withOrder(LaneOrder::Forward, 2));
  for (std::size_t i = 0; i < in.size(); ++i) {
    double e4 = normc::reference::roundTo(DType::F8E4M3, in[i]);
    double e5 = normc::reference::roundTo(DType::F8E5M2, in[i]);
    if (std::isnan(in[i])) {
      EXPECT_TRUE(std::isnan(e4m3[i]) && std::isnan(e5m2[i]));
      continue;
    }
    ASSERT_EQ(double(e4m3[i]), e4) << std::hexfloat << in[i];
    ASSERT_EQ(double(e5m2[i]), e5) << std::hexfloat << in[i];
    ASSERT_EQ(std::signbit(e4m3[i]), std::signbit(e4)) << in[i];
  }
}

const char *kConvertBlockFormats = R"(
#include <cuda_fp4.h>
#include <cuda_fp8.h>
NORMC_KERNEL(128, convert_block)(const float *__restrict__ in,
                                 float *__restrict__ e2m1,
                                 float *__restrict__ up,
                                 float *__restrict__ down, long long n) {
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // An FP4 value, saturating, to nearest even, and an E8M0 scale rounded
  // up and down; read back exactly through half and bf16.
  __half_raw q = __nv_cvt_fp4_to_halfraw(
      __nv_cvt_float_to_fp4(in[i], __NV_E2M1, cudaRoundNearest), __NV_E2M1);
  e2m1[i] = __half2float(__half(q));
  up[i] = __bfloat162float(__nv_bfloat16(__nv_cvt_e8m0_to_bf16raw(
      __nv_cvt_float_to_e8m0(in[i], __NV_SATFINITE, cudaRoundPosInf))));
  down[i] = __bfloat162float(__nv_bfloat16(__nv_cvt_e8m0_to_bf16raw(
      __nv_cvt_float_to_e8m0(in[i], __NV_SATFINITE, cudaRoundZero))));
}
#ifdef NORMC_CPU
extern "C" void normc_cpu_entry_convert_block(void **args) {
  NORMC_CPU_KERNEL(convert_block)(
      *reinterpret_cast<const float *const *>(args[0]),
      *reinterpret_cast<float *const *>(args[1]),
      *reinterpret_cast<float *const *>(args[2]),
      *reinterpret_cast<float *const *>(args[3]),
      *reinterpret_cast<const long long *>(args[4]));
}
#endif
)";

TEST(ConversionTest, Fp4AndE8m0RoundLikeTheReference) {
  // The toolkit's host conversions against the reference: for E2M1 every
  // value, the midpoints and just beside them, beyond the largest, NaN and
  // random values; for E8M0 every power of two of its range, just beside
  // and between them, its ends and beyond, and random positive floats.
  using normc::dsl::DType;
  std::vector<float> in = {0.0f, INFINITY, -INFINITY, NAN, 1e30f, -1e30f, 7.0f};
  const float e2m1[] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (int i = 0; i < 8; ++i) {
    std::vector<float> points = {e2m1[i]};
    if (i + 1 < 8)
      points.push_back((e2m1[i] + e2m1[i + 1]) / 2);
    for (float m : points)
      for (float f : {m, std::nextafter(m, 0.0f), std::nextafter(m, 8.0f)})
        in.insert(in.end(), {f, -f});
  }
  for (int e = -127; e <= 127; ++e) {
    float p = std::ldexp(1.0f, e);
    in.insert(in.end(), {p, std::nextafter(p, 0.0f),
                         std::nextafter(p, INFINITY), p * 1.5f});
  }
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> small(-8, 8), exponent(-126, 127);
  for (int i = 0; i < 20000; ++i)
    in.insert(in.end(), {small(rng), std::exp2(exponent(rng))});

  CpuKernel kernel = compileKernel(kConvertBlockFormats, "convert_block");
  long long n = static_cast<long long>(in.size());
  std::vector<float> q(in.size()), up(in.size()), down(in.size());
  const float *inPtr = in.data();
  float *qPtr = q.data(), *upPtr = up.data(), *downPtr = down.data();
  void *args[] = {&inPtr, &qPtr, &upPtr, &downPtr, &n};
  launch(kernel, Dim3{static_cast<unsigned>((n + 127) / 128)}, Dim3{128}, 0,
         args, withOrder(LaneOrder::Forward, 2));
  for (std::size_t i = 0; i < in.size(); ++i) {
    // The sign of a zero is not compared: the toolkit's host conversion
    // gives +0 for what underflows, the reference keeps the sign.
    ASSERT_EQ(double(q[i]), normc::reference::roundTo(DType::F4E2M1, in[i]))
        << std::hexfloat << in[i];
    if (std::isnan(in[i])) {
      EXPECT_TRUE(std::isnan(up[i]) && std::isnan(down[i]));
      continue;
    }
    if (in[i] < 0)
      continue; // a block scale comes from an amax: positive, or 0
    ASSERT_EQ(double(up[i]),
              normc::reference::roundToPowerOfTwo(DType::F8E8M0, in[i], true))
        << std::hexfloat << in[i];
    ASSERT_EQ(double(down[i]),
              normc::reference::roundToPowerOfTwo(DType::F8E8M0, in[i], false))
        << std::hexfloat << in[i];
  }
}

} // namespace
