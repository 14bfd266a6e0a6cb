//===- HostData.cpp - Element conversions between doubles and storage -----===//
//
// Uses the CUDA toolkit's own bf16/f16/fp8/fp4 conversions (host code when
// __CUDACC__ is not defined), so host and device round identically. Elements
// narrower than a byte are packed, the first in the low bits.
//
//===----------------------------------------------------------------------===//
#include "normc/Runtime/Host/HostData.h"
#include "normc/Abi/ElementType.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

using namespace normc;

namespace {
/// An element's code: its bits, in the low `bits` of the table's width.
template <typename T> uint64_t codeOf(T value) {
  uint64_t code = 0;
  std::memcpy(&code, &value, sizeof(T)); // little-endian, as the GPU
  return code;
}
template <typename T> T fromCode(uint64_t code) {
  T value; // __half and __nv_bfloat16 are classes: copied as bytes
  std::memcpy(static_cast<void *>(&value), &code, sizeof(T));
  return value;
}

template <__nv_fp8_interpretation_t Format> uint64_t encodeFp8(double v) {
  return __nv_cvt_double_to_fp8(v, __NV_SATFINITE, Format);
}
// Every fp8 and fp4 value is an f16 value.
template <__nv_fp8_interpretation_t Format> double decodeFp8(uint64_t code) {
  return __half2float(
      __half(__nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t(code), Format)));
}

/// How the host converts one element of a type the element-type table
/// names, to and from its code; its width, and so how codes pack, is the
/// table's.
struct Converter {
  std::string_view type;
  uint64_t (*encode)(double value);
  double (*decode)(uint64_t code);
};

const Converter kConverters[] = {
    {"f32", [](double v) { return codeOf(float(v)); },
     [](uint64_t c) -> double { return fromCode<float>(c); }},
    {"f64", [](double v) { return codeOf(v); },
     [](uint64_t c) { return fromCode<double>(c); }},
    {"f16", [](double v) { return codeOf(__double2half(v)); },
     [](uint64_t c) -> double { return __half2float(fromCode<__half>(c)); }},
    {"bf16", [](double v) { return codeOf(__double2bfloat16(v)); },
     [](uint64_t c) -> double {
       return __bfloat162float(fromCode<__nv_bfloat16>(c));
     }},
    {"f8e4m3", encodeFp8<__NV_E4M3>, decodeFp8<__NV_E4M3>},
    {"f8e5m2", encodeFp8<__NV_E5M2>, decodeFp8<__NV_E5M2>},
    // A block scale: a power of two, rounded up as the "ceil" rule does.
    {"f8e8m0",
     [](double v) -> uint64_t {
       return __nv_cvt_float_to_e8m0(float(v), __NV_SATFINITE, cudaRoundPosInf);
     },
     [](uint64_t c) -> double {
       return __bfloat162float(
           __nv_bfloat16(__nv_cvt_e8m0_to_bf16raw(__nv_fp8_storage_t(c))));
     }},
    {"f4e2m1",
     [](double v) -> uint64_t {
       return __nv_cvt_double_to_fp4(v, __NV_E2M1, cudaRoundNearest);
     },
     [](uint64_t c) -> double {
       return __half2float(
           __half(__nv_cvt_fp4_to_halfraw(__nv_fp4_storage_t(c), __NV_E2M1)));
     }},
    // To nearest, ties to even (the default rounding mode), clamped; NaN
    // is 0, as the GPU's saturating conversion gives.
    {"i8",
     [](double v) -> uint64_t {
       double q =
           std::isnan(v) ? 0 : std::clamp(std::nearbyint(v), -128.0, 127.0);
       return uint8_t(int8_t(q));
     },
     [](uint64_t c) -> double { return int8_t(uint8_t(c)); }},
};

const Converter &converterFor(std::string_view type) {
  for (const Converter &c : kConverters)
    if (c.type == type)
      return c;
  throw std::invalid_argument("unknown element type '" + std::string(type) +
                              "'");
}
} // namespace

size_t host::elementBytes(std::string_view type) {
  converterFor(type); // throws for a type this file cannot convert
  return elementTypeNamed(type)->bytesFor(1);
}

std::vector<unsigned char> host::encode(std::string_view type,
                                        const double *values, size_t count) {
  const Converter &c = converterFor(type);
  const ElementType &t = *findElementType(type);
  std::vector<unsigned char> out(t.bytesFor(int64_t(count)));
  for (size_t i = 0; i < count; ++i) {
    uint64_t code = c.encode(values[i]);
    if (t.packed()) // element i at bit i * bits, the first in the low bits
      out[i * t.bits / 8] |= (code & ((1u << t.bits) - 1)) << (i * t.bits % 8);
    else
      std::memcpy(out.data() + i * t.bits / 8, &code, t.bits / 8);
  }
  return out;
}

std::vector<double> host::decode(std::string_view type, const void *data,
                                 size_t count) {
  const Converter &c = converterFor(type);
  const ElementType &t = *findElementType(type);
  const auto *in = static_cast<const unsigned char *>(data);
  std::vector<double> out(count);
  for (size_t i = 0; i < count; ++i) {
    uint64_t code = 0;
    if (t.packed())
      code = (in[i * t.bits / 8] >> (i * t.bits % 8)) & ((1u << t.bits) - 1);
    else
      std::memcpy(&code, in + i * t.bits / 8, t.bits / 8);
    out[i] = c.decode(code);
  }
  return out;
}
