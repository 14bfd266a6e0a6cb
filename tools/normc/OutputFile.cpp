//===- OutputFile.cpp - Write outputs whole or not at all -----------------===//
#include "OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace normc::tool;

StagedFiles::~StagedFiles() {
  for (auto &[temp, target] : staged)
    llvm::sys::fs::remove(temp);
}

std::string StagedFiles::add(const std::string &path,
                             const std::string &contents) {
  llvm::SmallString<256> model(path);
  llvm::sys::path::remove_filename(model);
  if (model.empty())
    model = ".";
  llvm::sys::path::append(model, ".normc-%%%%%%%%.tmp");
  int fd = -1;
  llvm::SmallString<256> temp;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, temp))
    return "cannot write '" + path + "': " + ec.message();
  staged.emplace_back(temp.str().str(), path);
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << contents;
  os.close();
  if (os.has_error()) {
    std::string why = os.error().message();
    os.clear_error(); // else the destructor reports a fatal error
    return "cannot write '" + path + "': " + why;
  }
  return "";
}

std::string StagedFiles::commit() {
  for (auto &[temp, target] : staged)
    if (llvm::sys::fs::is_directory(target))
      return "cannot write '" + target + "': it is a folder";
  for (auto &[temp, target] : staged)
    if (std::error_code ec = llvm::sys::fs::rename(temp, target))
      return "cannot write '" + target + "': " + ec.message();
  staged.clear();
  return "";
}

std::string normc::tool::writeFileAtomically(const std::string &path,
                                             const std::string &contents) {
  StagedFiles files;
  std::string error = files.add(path, contents);
  return error.empty() ? files.commit() : error;
}
