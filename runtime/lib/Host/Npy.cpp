//===- Npy.cpp - Read and write NumPy .npy files --------------------------===//
//
// The format (numpy.lib.format): the magic "\x93NUMPY", a major and minor
// version byte, the header length (2 bytes little-endian in version 1.0, 4 in
// 2.0 and 3.0), a header that is a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// and then the raw elements. The header is parsed as a small subset of
// Python literals, with nesting bounded, so no file can crash the reader.
//
//===----------------------------------------------------------------------===//
#include "normc/Runtime/Host/Npy.h"
#include "normc/Abi/ElementType.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace normc::npy {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

//===----------------------------------------------------------------------===//
// The header: a Python dict literal
//===----------------------------------------------------------------------===//

/// A Python literal of the kinds .npy headers use.
struct Literal {
  enum Kind { String, Bool, None, Int, Tuple, List } kind = None;
  std::string text;
  bool flag = false;
  int64_t integer = 0;
  std::vector<Literal> items;
};

/// `text` in single quotes for a message, with bytes that are not printable
/// ASCII written as \xNN so a corrupt file cannot garble the terminal.
std::string quoted(std::string_view text) {
  static const char digits[] = "0123456789abcdef";
  std::string out = "'";
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out += c;
    } else {
      out += "\\x";
      out += digits[byte >> 4];
      out += digits[byte & 0xf];
    }
  }
  return out + "'";
}

/// Why a header could not be parsed; becomes "PATH: malformed header: WHY".
struct MalformedHeader {
  std::string why;
};

class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : text(text) {}

  /// Parses `{key: value, ...}` followed only by whitespace.
  std::map<std::string, Literal> parseDict() {
    std::map<std::string, Literal> dict;
    expect('{');
    // A trailing comma before '}' is allowed, as in Python.
    while (!consume('}')) {
      Literal key = parseValue(0);
      if (key.kind != Literal::String)
        throw MalformedHeader{"dictionary keys must be strings"};
      expect(':');
      Literal value = parseValue(0);
      if (!dict.emplace(key.text, std::move(value)).second)
        throw MalformedHeader{"duplicate key " + quoted(key.text)};
      if (!commaOrClose('}'))
        break;
    }
    skipSpace();
    if (pos != text.size())
      throw MalformedHeader{"unexpected text after the dictionary"};
    return dict;
  }

private:
  static constexpr int kMaxDepth = 16;

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\r' || text[pos] == '\n'))
      ++pos;
  }

  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }

  void expect(char c) {
    if (!consume(c))
      throw MalformedHeader{std::string("expected '") + c + "' at offset " +
                            std::to_string(pos)};
  }

  /// After an item of a dict or a sequence: true for ',' (more may follow),
  /// false for `close`.
  bool commaOrClose(char close) {
    if (consume(','))
      return true;
    if (consume(close))
      return false;
    throw MalformedHeader{std::string("expected ',' or '") + close +
                          "' at offset " + std::to_string(pos)};
  }

  Literal parseValue(int depth) {
    if (depth > kMaxDepth)
      throw MalformedHeader{"values nested too deeply"};
    skipSpace();
    if (pos == text.size())
      throw MalformedHeader{"unexpected end of the header"};
    char c = text[pos];
    if (c == '\'' || c == '"')
      return parseString(c);
    if (c == '(' || c == '[')
      return parseSequence(depth);
    if (c == '-' || c == '+' || (c >= '0' && c <= '9'))
      return parseInteger();
    return parseName();
  }

  Literal parseString(char quote) {
    Literal lit;
    lit.kind = Literal::String;
    ++pos;
    while (pos < text.size() && text[pos] != quote) {
      // An escape keeps the next character as it is; headers of the dtypes
      // read here never need more.
      if (text[pos] == '\\' && pos + 1 < text.size())
        ++pos;
      lit.text += text[pos++];
    }
    if (pos == text.size())
      throw MalformedHeader{"unterminated string"};
    ++pos;
    return lit;
  }

  /// A tuple or list. As in Python, "(3)" is the integer 3, not a tuple.
  Literal parseSequence(int depth) {
    char close = text[pos] == '(' ? ')' : ']';
    Literal lit;
    lit.kind = close == ')' ? Literal::Tuple : Literal::List;
    ++pos;
    bool sawComma = false;
    while (!consume(close)) {
      lit.items.push_back(parseValue(depth + 1));
      if (!commaOrClose(close))
        break;
      sawComma = true;
    }
    if (lit.kind == Literal::Tuple && lit.items.size() == 1 && !sawComma)
      return std::move(lit.items.front());
    return lit;
  }

  /// A decimal integer; Python 2 wrote shapes such as (3L, 4L).
  Literal parseInteger() {
    Literal lit;
    lit.kind = Literal::Int;
    bool negative = text[pos] == '-';
    if (text[pos] == '-' || text[pos] == '+')
      ++pos;
    size_t start = pos;
    uint64_t magnitude = 0;
    const uint64_t max = std::numeric_limits<int64_t>::max();
    for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos) {
      auto digit = static_cast<uint64_t>(text[pos] - '0');
      if (magnitude > (max - digit) / 10)
        throw MalformedHeader{"integer too large"};
      magnitude = magnitude * 10 + digit;
    }
    if (pos == start)
      throw MalformedHeader{"expected a digit at offset " +
                            std::to_string(pos)};
    if (pos < text.size() && (text[pos] == 'L' || text[pos] == 'l'))
      ++pos;
    lit.integer = static_cast<int64_t>(magnitude) * (negative ? -1 : 1);
    return lit;
  }

  Literal parseName() {
    size_t start = pos;
    while (pos < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[pos])) ||
            text[pos] == '_'))
      ++pos;
    std::string_view name = text.substr(start, pos - start);
    Literal lit;
    if (name == "True" || name == "False") {
      lit.kind = Literal::Bool;
      lit.flag = name == "True";
    } else if (name != "None") {
      throw MalformedHeader{"unexpected character at offset " +
                            std::to_string(start)};
    }
    return lit;
  }

  std::string_view text;
  size_t pos = 0;
};

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

/// Whether the reader decodes `type`: IEEE binary floats, whose numpy and
/// torch names agree ("float32").
bool readable(const normc::ElementType &type) {
  return !type.npyCode.empty() &&
         type.encoding == normc::ElementType::Encoding::Float &&
         type.specials == normc::ElementType::Specials::Ieee;
}

/// The element type a descr names, when it is one read here: a float of the
/// element-type table whose .npy code it is ('f2', 'f4' or 'f8'),
/// little-endian ('<'), or with '|', '=' or no byte order; null otherwise.
const normc::ElementType *elementType(const std::string &descr) {
  std::string_view code = descr;
  if (!code.empty() &&
      (code.front() == '<' || code.front() == '|' || code.front() == '='))
    code.remove_prefix(1);
  for (const normc::ElementType &type : normc::allElementTypes())
    if (readable(type) && type.npyCode == code)
      return &type;
  return nullptr;
}

/// The readable types' numpy names, as a message lists them.
std::string readableTypes() {
  std::vector<std::string_view> names;
  for (const normc::ElementType &type : normc::allElementTypes())
    if (readable(type))
      names.push_back(type.torchName);
  return normc::listForMessage(names);
}

uint64_t loadLittleEndian(const unsigned char *p, size_t size) {
  uint64_t v = 0;
  for (size_t i = size; i-- > 0;)
    v = (v << 8) | p[i];
  return v;
}

/// IEEE binary16 to double; every half is exactly a double.
double halfToDouble(uint16_t bits) {
  int exponent = (bits >> 10) & 0x1f;
  int fraction = bits & 0x3ff;
  double magnitude;
  if (exponent == 0x1f)
    magnitude = fraction ? std::numeric_limits<double>::quiet_NaN() : INFINITY;
  else if (exponent == 0)
    magnitude = std::ldexp(fraction, -24); // subnormal: fraction * 2^-24
  else
    magnitude = std::ldexp(fraction | 0x400, exponent - 25);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

double decode(const unsigned char *p, size_t size) {
  uint64_t bits = loadLittleEndian(p, size);
  if (size == 2)
    return halfToDouble(static_cast<uint16_t>(bits));
  if (size == 4) {
    auto narrow = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &narrow, sizeof f);
    return f;
  }
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

[[noreturn]] void fail(const std::string &path, const std::string &message) {
  throw NpyError(path, message);
}

/// Python's repr of a shape tuple: (), (5,), (2, 3).
std::string formatShape(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

/// A .npy file read front to back and never further than asked: the
/// header first, then only the data it announces, so that an endless or
/// huge input (/dev/zero, a FIFO, a wrong file) costs no more than the
/// array it claims to hold.
class NpyReader {
public:
  explicit NpyReader(const std::string &path)
      : path(path), file(std::fopen(path.c_str(), "rb"), &std::fclose) {
    if (!file)
      fail(path, std::string("cannot read file: ") + std::strerror(errno));
    struct stat status;
    if (::fstat(::fileno(file.get()), &status) != 0)
      fail(path, std::string("cannot read file: ") + std::strerror(errno));
    if (S_ISDIR(status.st_mode))
      fail(path, std::string("cannot read file: ") + std::strerror(EISDIR));
    if (S_ISREG(status.st_mode))
      size = static_cast<uint64_t>(status.st_size);
  }

  /// The first `count` bytes, or all of a shorter file.
  std::string_view first(uint64_t count) {
    while (bytes.size() < count && !ended) {
      char chunk[1 << 16];
      size_t want = static_cast<size_t>(
          std::min<uint64_t>(sizeof chunk, count - bytes.size()));
      size_t got = std::fread(chunk, 1, want, file.get());
      bytes.append(chunk, got);
      if (got < want) {
        if (std::ferror(file.get()))
          fail(path, std::string("cannot read file: ") + std::strerror(errno));
        ended = true;
      }
    }
    return bytes;
  }

  /// Whether nothing follows the bytes read so far.
  bool endsHere() {
    if (size)
      return *size == bytes.size();
    char extra;
    return ended || std::fread(&extra, 1, 1, file.get()) == 0;
  }

  /// The file's size when it is a regular file.
  std::optional<uint64_t> size;

private:
  std::string path;
  std::unique_ptr<std::FILE, int (*)(std::FILE *)> file;
  std::string bytes;
  bool ended = false;
};

/// Longer headers are not .npy files (numpy writes a few hundred bytes).
constexpr uint64_t kMaxHeaderBytes = 1 << 20;

/// The header dict's text, after checking the magic and the version.
std::string headerText(const std::string &path, NpyReader &reader,
                       size_t &dataOffset) {
  std::string_view bytes = reader.first(12);
  if (bytes.substr(0, kMagic.size()) != kMagic)
    fail(path, "not a .npy file");
  if (bytes.size() < kMagic.size() + 2)
    fail(path, "truncated: the file ends inside the header");
  int major = static_cast<unsigned char>(bytes[6]);
  int minor = static_cast<unsigned char>(bytes[7]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    fail(path, "unsupported .npy format version " + std::to_string(major) +
                   "." + std::to_string(minor) + "; expected 1.0, 2.0 or 3.0");
  size_t lengthSize = major == 1 ? 2 : 4;
  size_t start = 8 + lengthSize;
  if (bytes.size() < start)
    fail(path, "truncated: the file ends inside the header");
  uint64_t length = loadLittleEndian(
      reinterpret_cast<const unsigned char *>(bytes.data()) + 8, lengthSize);
  if (length > kMaxHeaderBytes)
    fail(path, "malformed header: " + std::to_string(length) +
                   " bytes long, more than " + std::to_string(kMaxHeaderBytes));
  bytes = reader.first(start + length);
  if (length > bytes.size() - start)
    fail(path, "truncated: expected a header of " + std::to_string(length) +
                   " bytes, found " + std::to_string(bytes.size() - start));
  dataOffset = start + length;
  return std::string(bytes.substr(start, length));
}

/// Bytes of memory this machine has (0 when unknown).
uint64_t physicalMemory() {
  long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : 0;
}

/// The shape from the header, checked to be non-negative integers.
std::vector<int64_t> shapeOf(const std::string &path, const Literal &lit) {
  std::vector<int64_t> shape;
  bool ok = lit.kind == Literal::Tuple;
  for (const Literal &item : lit.items) {
    ok = ok && item.kind == Literal::Int && item.integer >= 0;
    shape.push_back(item.integer);
  }
  if (!ok)
    fail(path, "malformed header: 'shape' must be a tuple of non-negative "
               "integers");
  return shape;
}

/// Number of elements, or -1 when their bytes would not fit in int64_t.
int64_t elementCount(const std::vector<int64_t> &shape, size_t elementSize) {
  for (int64_t dim : shape)
    if (dim == 0)
      return 0;
  int64_t limit =
      std::numeric_limits<int64_t>::max() / static_cast<int64_t>(elementSize);
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (count > limit / dim)
      return -1;
    count *= dim;
  }
  return count;
}

} // namespace

Array read(const std::string &path) {
  NpyReader reader(path);
  size_t dataOffset = 0;
  std::string header = headerText(path, reader, dataOffset);

  std::map<std::string, Literal> dict;
  try {
    dict = HeaderParser(header).parseDict();
  } catch (const MalformedHeader &e) {
    fail(path, "malformed header: " + e.why);
  }
  for (const char *key : {"descr", "fortran_order", "shape"})
    if (!dict.count(key))
      fail(path, std::string("malformed header: missing key '") + key + "'");
  if (dict.size() != 3)
    fail(path, "malformed header: expected only the keys 'descr', "
               "'fortran_order' and 'shape'");

  const Literal &descr = dict["descr"];
  if (descr.kind != Literal::String && descr.kind != Literal::List)
    fail(path, "malformed header: 'descr' must be a string");
  const normc::ElementType *type = nullptr;
  if (descr.kind == Literal::String)
    type = elementType(descr.text);
  if (!type)
    fail(path, "unsupported dtype " +
                   (descr.kind == Literal::String ? quoted(descr.text)
                                                  : "(a structured dtype)") +
                   "; expected " + readableTypes());

  const Literal &fortran = dict["fortran_order"];
  if (fortran.kind != Literal::Bool)
    fail(path, "malformed header: 'fortran_order' must be True or False");
  if (fortran.flag)
    fail(path, "Fortran-order arrays are not supported; save a C-order array "
               "(numpy.ascontiguousarray)");

  Array array;
  array.shape = shapeOf(path, dict["shape"]);
  array.dtype = std::string(type->torchName);
  const size_t size = type->bytesFor(1);
  int64_t count = elementCount(array.shape, size);
  if (count < 0)
    fail(path, "shape " + formatShape(array.shape) + " is too large");
  uint64_t expected = static_cast<uint64_t>(count) * size;
  auto wrongSize = [&](uint64_t found, bool more) {
    fail(path, std::string(found < expected ? "truncated: " : "") +
                   "expected " + std::to_string(expected) +
                   " bytes of data, found " + std::to_string(found) +
                   (more ? " and more" : ""));
  };
  // A regular file's size is checked before its data is read.
  if (reader.size && *reader.size - dataOffset != expected)
    wrongSize(*reader.size - dataOffset, false);
  // The bytes and the doubles they become must fit in memory (compared by
  // division: the product may not fit in 64 bits).
  const uint64_t perElement = size + sizeof(double);
  if (uint64_t memory = physicalMemory();
      memory && static_cast<uint64_t>(count) > memory / perElement)
    fail(path, "shape " + formatShape(array.shape) + " needs " +
                   std::to_string(static_cast<uint64_t>(
                       double(count) * double(perElement) / (1 << 20))) +
                   " MiB to read, more than this machine's " +
                   std::to_string(memory >> 20) + " MiB of memory");
  std::string_view bytes = reader.first(dataOffset + expected);
  if (bytes.size() - dataOffset != expected || !reader.endsHere())
    wrongSize(bytes.size() - dataOffset, bytes.size() - dataOffset == expected);

  array.data.resize(count);
  auto *p = reinterpret_cast<const unsigned char *>(bytes.data()) + dataOffset;
  for (int64_t i = 0; i < count; ++i)
    array.data[i] = decode(p + i * size, size);
  return array;
}

std::string encodeFloat32(const std::vector<int64_t> &shape,
                          const float *data) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0)
      throw NpyError("encodeFloat32",
                     "negative dimension in shape " + formatShape(shape));
    count *= dim;
  }
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " +
                       formatShape(shape) + ", }";
  // Magic, version, length, header and the final newline fill a multiple of
  // 64 bytes, so the data is aligned.
  size_t unpadded = kMagic.size() + 2 + 2 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  if (header.size() > 0xffff)
    throw NpyError("encodeFloat32", "shape " + formatShape(shape) +
                                        " does not fit a version 1.0 header");

  std::string bytes(kMagic);
  bytes += '\x01';
  bytes += '\x00';
  bytes += static_cast<char>(header.size() & 0xff);
  bytes += static_cast<char>(header.size() >> 8);
  bytes += header;
  bytes.reserve(bytes.size() + count * 4);
  for (int64_t i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &data[i], sizeof bits);
    for (int b = 0; b < 4; ++b)
      bytes += static_cast<char>((bits >> (8 * b)) & 0xff);
  }
  return bytes;
}

} // namespace normc::npy
