//===- Printable.cpp - User text made safe to echo to a terminal ----------===//
#include "normc/Abi/Printable.h"

std::string normc::printable(std::string_view text) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (byte < 0x20 || byte == 0x7f)
      out += std::string("\\x") + hex[byte >> 4] + hex[byte & 15];
    else
      out += c;
  }
  return out;
}
