//===- ConversionTest.cpp - bf16 and half rounding in CPU-compiled code ---===//
//
// Kernels convert with the toolkit's own host implementations; they must
// round to nearest even like the GPU. References: bf16 by the bit trick,
// half by searching all representable halves.
//
//===----------------------------------------------------------------------===//

#include "CpuTestUtil.h"

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

} // namespace
