//===- HostData.h - Element conversions between doubles and storage -------===//
#ifndef NORMC_RUNTIME_HOSTDATA_H
#define NORMC_RUNTIME_HOSTDATA_H

#include <cstddef>
#include <string_view>
#include <vector>

namespace normc::host {

/// Bytes per element of a type the host converts: "f32", "f64", "f16",
/// "bf16", "f8e4m3", "f8e5m2".
/// Throws std::invalid_argument for anything else.
size_t elementBytes(std::string_view type);

/// Rounds each value to nearest even in `type` and packs them.
std::vector<unsigned char> encode(std::string_view type, const double *values,
                                  size_t count);

/// Unpacks `count` elements of `type`; exact.
std::vector<double> decode(std::string_view type, const void *data,
                           size_t count);

} // namespace normc::host

#endif // NORMC_RUNTIME_HOSTDATA_H
