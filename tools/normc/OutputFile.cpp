//===- OutputFile.cpp - Write outputs whole or not at all -----------------===//
#include "OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

using namespace normc::tool;

namespace {

std::string cannotWrite(const std::string &path, const std::string &why) {
  return "cannot write '" + path + "': " + why;
}

/// Writes `contents` to the open descriptor `fd`; an error message or "".
std::string writeAll(int fd, const std::string &contents,
                     const std::string &path) {
  for (size_t done = 0; done < contents.size();) {
    ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return cannotWrite(path, n < 0 ? std::strerror(errno) : "short write");
    done += size_t(n);
  }
  return "";
}

/// A file that is not a regular one (a device, a FIFO): written in place.
std::string writeInPlace(const std::string &path, const std::string &contents) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return cannotWrite(path, std::strerror(errno));
  std::string error = writeAll(fd, contents, path);
  if (::close(fd) != 0 && error.empty())
    error = cannotWrite(path, std::strerror(errno));
  return error;
}

/// A model for a name of ours next to `target` (llvm::sys::fs fills in the
/// %s).
llvm::SmallString<256> besideModel(const std::string &target,
                                   const char *suffix) {
  llvm::SmallString<256> model(target);
  llvm::sys::path::remove_filename(model);
  if (model.empty())
    model = ".";
  llvm::sys::path::append(model, std::string(".normc-%%%%%%%%") + suffix);
  return model;
}

} // namespace

StagedFiles::~StagedFiles() {
  for (Staged &s : staged)
    if (!s.temporary.empty())
      ::unlink(s.temporary.c_str());
}

std::string StagedFiles::add(const std::string &path,
                             const std::string &contents) {
  Staged s;
  s.shown = s.target = path;
  struct stat status;
  if (path == "-") {
    s.inPlace = true;
    s.contents = contents;
    staged.push_back(std::move(s));
    return "";
  }
  if (::lstat(path.c_str(), &status) == 0 && S_ISLNK(status.st_mode)) {
    std::unique_ptr<char, void (*)(void *)> resolved(
        ::realpath(path.c_str(), nullptr), &std::free);
    if (!resolved)
      return cannotWrite(path, "it is a symbolic link to nothing");
    s.target = resolved.get();
  }
  bool exists = ::stat(s.target.c_str(), &status) == 0;
  if (exists && S_ISDIR(status.st_mode))
    return cannotWrite(path, "it is a folder");
  if (exists && !S_ISREG(status.st_mode)) {
    s.inPlace = true;
    s.contents = contents;
    staged.push_back(std::move(s));
    return "";
  }
  int fd = -1;
  llvm::SmallString<256> temporary;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          besideModel(s.target, ".tmp"), fd, temporary))
    return cannotWrite(path, ec.message());
  s.temporary = temporary.str().str();
  std::string error = writeAll(fd, contents, path);
  if (exists && error.empty() && ::fchmod(fd, status.st_mode & 07777) != 0)
    error = cannotWrite(path, std::strerror(errno));
  if (::close(fd) != 0 && error.empty())
    error = cannotWrite(path, std::strerror(errno));
  staged.push_back(std::move(s));
  return error;
}

void StagedFiles::rollBack(size_t placed) {
  for (size_t i = 0; i < placed; ++i) {
    Staged &s = staged[i];
    if (s.inPlace)
      continue;
    if (!s.backup.empty())
      ::rename(s.backup.c_str(), s.target.c_str());
    else
      ::unlink(s.target.c_str());
  }
  for (Staged &s : staged)
    if (!s.backup.empty())
      ::unlink(s.backup.c_str());
}

std::string StagedFiles::commit() {
  // Streams and devices first: when one fails, no file has been replaced.
  for (Staged &s : staged) {
    if (!s.inPlace)
      continue;
    std::string error;
    if (s.target == "-") {
      llvm::outs() << s.contents;
      llvm::outs().flush();
      if (llvm::outs().has_error())
        error = cannotWrite("-", llvm::outs().error().message());
    } else {
      error = writeInPlace(s.target, s.contents);
    }
    if (!error.empty())
      return error;
  }
  // Keep each file about to be replaced (a hard link, so that the target
  // never disappears), then rename the new ones into place; a failure puts
  // back what was replaced so far.
  for (Staged &s : staged) {
    if (s.inPlace || ::access(s.target.c_str(), F_OK) != 0)
      continue;
    llvm::SmallString<256> backup;
    llvm::sys::fs::createUniquePath(besideModel(s.target, ".old"), backup,
                                    /*MakeAbsolute=*/false);
    if (::link(s.target.c_str(), backup.c_str()) != 0) {
      std::string error =
          cannotWrite(s.shown, std::string("cannot keep the old file: ") +
                                   std::strerror(errno));
      rollBack(0);
      return error;
    }
    s.backup = backup.str().str();
  }
  for (size_t i = 0; i < staged.size(); ++i) {
    Staged &s = staged[i];
    if (s.inPlace)
      continue;
    if (rename(s.temporary.c_str(), s.target.c_str()) != 0) {
      std::string error = cannotWrite(s.shown, std::strerror(errno));
      rollBack(i);
      return error;
    }
    s.temporary.clear();
  }
  for (Staged &s : staged)
    if (!s.backup.empty())
      ::unlink(s.backup.c_str());
  staged.clear();
  return "";
}

std::string normc::tool::writeFileAtomically(const std::string &path,
                                             const std::string &contents) {
  StagedFiles files;
  std::string error = files.add(path, contents);
  return error.empty() ? files.commit() : error;
}
