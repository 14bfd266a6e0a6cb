//===- HostData.cpp - Element conversions between doubles and storage -----===//
//
// Uses the CUDA toolkit's own bf16/f16/fp8 conversions (host code when
// __CUDACC__ is not defined), so host and device round identically.
//
//===----------------------------------------------------------------------===//
#include "normc/Runtime/Host/HostData.h"
#include "normc/Abi/ElementType.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstring>
#include <stdexcept>
#include <string>

using namespace normc;

namespace {
template <typename T> void store(unsigned char *out, T value) {
  std::memcpy(out, &value, sizeof(T));
}
template <typename T> T load(const unsigned char *in) {
  T value;
  std::memcpy(&value, in, sizeof(T));
  return value;
}

template <__nv_fp8_interpretation_t Format>
void encodeFp8(unsigned char *out, double v) {
  store(out, __nv_cvt_double_to_fp8(v, __NV_SATFINITE, Format));
}
// Every fp8 value is an f16 value.
template <__nv_fp8_interpretation_t Format>
double decodeFp8(const unsigned char *in) {
  return __half2float(
      __half(__nv_cvt_fp8_to_halfraw(load<__nv_fp8_storage_t>(in), Format)));
}

/// How the host converts one element of a type the element-type table
/// names; its width is the table's.
struct Converter {
  std::string_view type;
  void (*encode)(unsigned char *out, double value);
  double (*decode)(const unsigned char *in);
};

const Converter kConverters[] = {
    {"f32", [](unsigned char *o, double v) { store(o, float(v)); },
     [](const unsigned char *i) -> double { return load<float>(i); }},
    {"f64", [](unsigned char *o, double v) { store(o, v); },
     [](const unsigned char *i) { return load<double>(i); }},
    {"f16", [](unsigned char *o, double v) { store(o, __double2half(v)); },
     [](const unsigned char *i) -> double {
       return __half2float(load<__half>(i));
     }},
    {"bf16", [](unsigned char *o, double v) { store(o, __double2bfloat16(v)); },
     [](const unsigned char *i) -> double {
       return __bfloat162float(load<__nv_bfloat16>(i));
     }},
    {"f8e4m3", encodeFp8<__NV_E4M3>, decodeFp8<__NV_E4M3>},
    {"f8e5m2", encodeFp8<__NV_E5M2>, decodeFp8<__NV_E5M2>},
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
  size_t bytes = elementBytes(type);
  std::vector<unsigned char> out(count * bytes);
  for (size_t i = 0; i < count; ++i)
    c.encode(out.data() + i * bytes, values[i]);
  return out;
}

std::vector<double> host::decode(std::string_view type, const void *data,
                                 size_t count) {
  const Converter &c = converterFor(type);
  size_t bytes = elementBytes(type);
  const auto *in = static_cast<const unsigned char *>(data);
  std::vector<double> out(count);
  for (size_t i = 0; i < count; ++i)
    out[i] = c.decode(in + i * bytes);
  return out;
}
