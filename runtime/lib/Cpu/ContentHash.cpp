//===- ContentHash.cpp - Keys of the compiled-object cache ----------------===//

#include "ContentHash.h"

using namespace normc::cpu;

void ContentHash::addBytes(const unsigned char *data, std::size_t size) {
  const unsigned __int128 prime =
      (static_cast<unsigned __int128>(1) << 88) | 0x13b;
  for (std::size_t i = 0; i < size; ++i) {
    state ^= data[i];
    state *= prime;
  }
}

void ContentHash::add(const std::string &field) {
  unsigned char length[8];
  for (int i = 0; i < 8; ++i)
    length[i] = static_cast<unsigned char>(field.size() >> (8 * i));
  addBytes(length, sizeof length);
  addBytes(reinterpret_cast<const unsigned char *>(field.data()), field.size());
}

std::string ContentHash::hex() const {
  static const char digits[] = "0123456789abcdef";
  std::string text(32, '0');
  for (int i = 0; i < 32; ++i)
    text[31 - i] = digits[static_cast<unsigned>(state >> (4 * i)) & 15];
  return text;
}
