//===- HostData.h - Element conversions between doubles and storage -------===//
#ifndef NORMC_RUNTIME_HOSTDATA_H
#define NORMC_RUNTIME_HOSTDATA_H

#include <cstddef>
#include <string_view>
#include <vector>

namespace normc::host {

/// Bytes per element of a type the host converts: "f32", "f64", "f16",
/// "bf16", "f8e4m3", "f8e5m2", "f8e8m0", "i8", and 1 for the packed "f4e2m1"
/// (an upper bound: `count` of them take the table's bytesFor(count)).
/// Throws std::invalid_argument for anything else.
size_t elementBytes(std::string_view type);

/// Rounds each value to nearest even in `type` (saturating where the type
/// does; E8M0 rounds up to a power of two) and packs them: bytesFor(count)
/// bytes, elements narrower than a byte two or more a byte, the first in the
/// low bits.
std::vector<unsigned char> encode(std::string_view type, const double *values,
                                  size_t count);

/// Unpacks `count` elements of `type`; exact.
std::vector<double> decode(std::string_view type, const void *data,
                           size_t count);

} // namespace normc::host

#endif // NORMC_RUNTIME_HOSTDATA_H
