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
enum class Kind { F32, F64, F16, BF16, F8E4M3, F8E5M2 };

Kind kindOf(std::string_view type) {
  if (type == "f32")
    return Kind::F32;
  if (type == "f64")
    return Kind::F64;
  if (type == "f16")
    return Kind::F16;
  if (type == "bf16")
    return Kind::BF16;
  if (type == "f8e4m3")
    return Kind::F8E4M3;
  if (type == "f8e5m2")
    return Kind::F8E5M2;
  throw std::invalid_argument("unknown element type '" + std::string(type) +
                              "'");
}

template <typename T> void store(unsigned char *out, T value) {
  std::memcpy(out, &value, sizeof(T));
}
template <typename T> T load(const unsigned char *in) {
  T value;
  std::memcpy(&value, in, sizeof(T));
  return value;
}
} // namespace

size_t host::elementBytes(std::string_view type) {
  kindOf(type); // throws for a type this file cannot convert
  return elementTypeNamed(type)->bytesFor(1);
}

std::vector<unsigned char> host::encode(std::string_view type,
                                        const double *values, size_t count) {
  Kind kind = kindOf(type);
  size_t bytes = elementBytes(type);
  std::vector<unsigned char> out(count * bytes);
  for (size_t i = 0; i < count; ++i) {
    unsigned char *at = out.data() + i * bytes;
    switch (kind) {
    case Kind::F32:
      store(at, static_cast<float>(values[i]));
      break;
    case Kind::F64:
      store(at, values[i]);
      break;
    case Kind::F16:
      store(at, __double2half(values[i]));
      break;
    case Kind::BF16:
      store(at, __double2bfloat16(values[i]));
      break;
    case Kind::F8E4M3:
    case Kind::F8E5M2:
      store(at, __nv_cvt_double_to_fp8(values[i], __NV_SATFINITE,
                                       kind == Kind::F8E4M3 ? __NV_E4M3
                                                            : __NV_E5M2));
      break;
    }
  }
  return out;
}

std::vector<double> host::decode(std::string_view type, const void *data,
                                 size_t count) {
  Kind kind = kindOf(type);
  size_t bytes = elementBytes(type);
  const auto *in = static_cast<const unsigned char *>(data);
  std::vector<double> out(count);
  for (size_t i = 0; i < count; ++i) {
    const unsigned char *at = in + i * bytes;
    switch (kind) {
    case Kind::F32:
      out[i] = load<float>(at);
      break;
    case Kind::F64:
      out[i] = load<double>(at);
      break;
    case Kind::F16:
      out[i] = __half2float(load<__half>(at));
      break;
    case Kind::BF16:
      out[i] = __bfloat162float(load<__nv_bfloat16>(at));
      break;
    case Kind::F8E4M3:
    case Kind::F8E5M2:
      // Every fp8 value is an f16 value.
      out[i] = __half2float(__half(__nv_cvt_fp8_to_halfraw(
          load<__nv_fp8_storage_t>(at),
          kind == Kind::F8E4M3 ? __NV_E4M3 : __NV_E5M2)));
      break;
    }
  }
  return out;
}
