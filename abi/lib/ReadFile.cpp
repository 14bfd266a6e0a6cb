//===- ReadFile.cpp - Whole files into memory -----------------------------===//
#include "normc/Abi/ReadFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

std::optional<std::string> normc::readFile(const std::string &path,
                                           std::string &text, uint64_t limit) {
  std::unique_ptr<std::FILE, int (*)(std::FILE *)> file(
      std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file)
    return std::string(std::strerror(errno));
  char chunk[1 << 16];
  size_t n;
  uint64_t read = 0;
  while ((n = std::fread(chunk, 1, sizeof chunk, file.get())) > 0) {
    if ((read += n) > limit)
      return "larger than " + std::to_string(limit) + " bytes";
    text.append(chunk, n);
  }
  if (std::ferror(file.get()))
    return std::string(std::strerror(errno));
  return std::nullopt;
}
