//===- ContentHash.h - Keys of the compiled-object cache ------------------===//
//
// 128-bit FNV-1a over length-prefixed fields: stable across builds and
// platforms (unlike std::hash), and wide enough that distinct inputs never
// meet in a cache directory in practice. Not a cryptographic hash: the
// cache trusts whoever can write to it.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_CPU_CONTENTHASH_H
#define NORMC_RUNTIME_CPU_CONTENTHASH_H

#include <string>

namespace normc {
namespace cpu {

class ContentHash {
public:
  /// Adds one field; fields are delimited, so ("ab","c") != ("a","bc").
  void add(const std::string &field);
  /// 32 lowercase hex digits.
  std::string hex() const;

private:
  void addBytes(const unsigned char *data, std::size_t size);

  unsigned __int128 state =
      (static_cast<unsigned __int128>(0x6c62272e07bb0142ull) << 64) |
      0x62b821756295c58dull;
};

} // namespace cpu
} // namespace normc

#endif // NORMC_RUNTIME_CPU_CONTENTHASH_H
