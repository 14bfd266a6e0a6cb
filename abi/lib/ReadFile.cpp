//===- ReadFile.cpp - Whole files into memory -----------------------------===//
#include "normc/Abi/ReadFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

std::optional<std::string> normc::readFile(const std::string &path,
                                           std::string &text) {
  std::unique_ptr<std::FILE, int (*)(std::FILE *)> file(
      std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file)
    return std::string(std::strerror(errno));
  char chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, file.get())) > 0)
    text.append(chunk, n);
  if (std::ferror(file.get()))
    return std::string(std::strerror(errno));
  return std::nullopt;
}
