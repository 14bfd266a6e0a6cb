//===- BoundedInput.cpp - .mlir inputs that cannot exhaust the process ----===//
#include "normc/Frontend/BoundedInput.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace normc;

namespace {

/// Where the nesting first passes the limit, as "line:col", or "".
std::string tooDeep(llvm::StringRef text) {
  unsigned depth = 0, line = 1, column = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
    } else if (c == '"') { // a string: brackets inside do not nest
      for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i)
        i += text[i] == '\\';
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > kMaxMlirNesting)
        return std::to_string(line) + ":" + std::to_string(column);
    } else if ((c == ')' || c == ']' || c == '}' ||
                (c == '>' && (i == 0 || text[i - 1] != '-'))) &&
               depth > 0) {
      --depth;
    }
  }
  return "";
}

} // namespace

std::unique_ptr<llvm::MemoryBuffer>
normc::readBoundedMlir(const std::string &path, std::string &error) {
  int fd = path == "-" ? ::dup(0) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = path + ": error: cannot read file: " + std::strerror(errno);
    return nullptr;
  }
  std::string text;
  char chunk[1 << 16];
  ssize_t got;
  while ((got = ::read(fd, chunk, sizeof chunk)) != 0) {
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0 || text.size() + size_t(got) > kMaxMlirBytes) {
      error =
          path + ": error: cannot read file: " +
          (got < 0 ? std::string(std::strerror(errno))
                   : "larger than " + std::to_string(kMaxMlirBytes) + " bytes");
      ::close(fd);
      return nullptr;
    }
    text.append(chunk, size_t(got));
  }
  ::close(fd);
  if (std::string where = tooDeep(text); !where.empty()) {
    error = path + ":" + where + ": error: nested more than " +
            std::to_string(kMaxMlirNesting) + " levels deep";
    return nullptr;
  }
  return llvm::MemoryBuffer::getMemBufferCopy(text,
                                              path == "-" ? "<stdin>" : path);
}

mlir::OwningOpRef<mlir::ModuleOp>
normc::parseBoundedMlir(const std::string &path, llvm::SourceMgr &sourceMgr,
                        const mlir::ParserConfig &config, std::string &error) {
  std::unique_ptr<llvm::MemoryBuffer> text = readBoundedMlir(path, error);
  if (!text)
    return nullptr;
  sourceMgr.AddNewSourceBuffer(std::move(text), llvm::SMLoc());
  return mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
}
