//===- Pack.cpp - Kernel packs: every candidate of a spec, ready to ship --===//
#include "normc/Runtime/Host/Pack.h"
#include "normc/Abi/Number.h"
#include "normc/Abi/ReadFile.h"
#include "normc/Abi/Signature.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

using namespace normc;
namespace fs = std::filesystem;

static const char kMagic[] = "normc-pack 2";

static void writeFile(const fs::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out)
    throw PackError(path.string() + ": cannot write");
}

/// A pack's largest file (a kernel's source) is tens of kilobytes.
constexpr uint64_t kMaxPackFileBytes = 64 << 20;

static std::string readPackFile(const fs::path &path) {
  std::string text;
  if (std::optional<std::string> reason =
          readFile(path.string(), text, kMaxPackFileBytes))
    throw PackError(path.string() + ": cannot read: " + *reason);
  return text;
}

/// Why `dir` (which exists) may not be replaced by a pack, or "" when it
/// may: an empty folder, or a pack this format wrote and nothing else (its
/// magic first, and only its manifest, spec and candidate sources).
static std::string whyNotReplaceable(const fs::path &dir) {
  if (!fs::is_directory(fs::symlink_status(dir)))
    return "exists and is not a folder";
  bool empty = fs::directory_iterator(dir) == fs::directory_iterator();
  if (empty)
    return "";
  std::string manifest;
  // A pack of any format (an older normc's too) may be replaced.
  static const std::string kAnyFormat = "normc-pack ";
  if (readFile((dir / "manifest.txt").string(), manifest, kMaxPackFileBytes) ||
      manifest.compare(0, kAnyFormat.size(), kAnyFormat) != 0)
    return "holds files and is not a normc pack";
  for (const fs::directory_entry &entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    bool packFile =
        name == "manifest.txt" || name == "spec.toml" ||
        (name.rfind("candidate-", 0) == 0 && name.size() > 13 &&
         name.substr(name.size() - 3) == ".cu" &&
         name.find_first_not_of("0123456789", 10) == name.size() - 3);
    if (!packFile || !entry.is_regular_file(/*follows links*/) ||
        entry.is_symlink())
      return "holds '" + name + "', which is not part of a normc pack";
  }
  return "";
}

void normc::writePack(const std::string &dir, const Pack &pack) {
  if (dir.empty())
    throw PackError("the pack's folder is an empty path");
  std::error_code ec;
  try {
    fs::path target = fs::absolute(dir);
    bool replaced = fs::exists(fs::symlink_status(target));
    if (replaced) {
      std::string why = whyNotReplaceable(target);
      if (!why.empty())
        throw PackError(dir + ": " + why + "; not replacing it");
    }
    std::ostringstream manifest;
    manifest << kMagic << "\nnormc " << pack.normcVersion << "\nd "
             << (pack.d ? std::to_string(*pack.d) : "runtime") << "\n";
    fs::path staging = target;
    staging += ".tmp-" + std::to_string(std::random_device{}());
    fs::create_directories(staging);
    try {
      writeFile(staging / "spec.toml", pack.specToml);
      for (size_t i = 0; i < pack.candidates.size(); ++i) {
        const PackCandidate &c = pack.candidates[i];
        std::string file = "candidate-" + std::to_string(i) + ".cu";
        writeFile(staging / file, c.source);
        manifest << "candidate " << file << " " << c.schedule.str() << "\n"
                 << "program " << c.program.str() << "\n";
        for (const KernelLaunchInfo &info : c.kernels)
          manifest << "info " << toText(info) << "\n";
      }
      writeFile(staging / "manifest.txt", manifest.str());
      fs::path old = target;
      old += ".old-" + std::to_string(std::random_device{}());
      if (replaced)
        fs::rename(target, old);
      fs::rename(staging, target, ec);
      if (ec) {
        if (replaced)
          fs::rename(old, target); // put the earlier pack back
        throw PackError(dir + ": " + ec.message());
      }
      if (replaced)
        fs::remove_all(old);
    } catch (...) {
      fs::remove_all(staging, ec);
      throw;
    }
  } catch (const fs::filesystem_error &error) {
    throw PackError(dir + ": " + error.code().message());
  }
}

/// How the parameter list of `info` differs from the declaration of its
/// kernel in `source` ("NORMC_KERNEL(BLOCK, NAME)(const float *x, long long
/// x_stride, ...)"), or "" when they agree: a manifest is data, checked
/// against the code it describes, so that no launch passes a kernel fewer
/// or other arguments than it reads.
static std::string declarationMismatch(const std::string &source,
                                       const KernelLaunchInfo &info) {
  std::string head = "NORMC_KERNEL(" + std::to_string(info.blockSize) + ", " +
                     info.name + ")(";
  size_t at = source.find(head);
  size_t end =
      at == std::string::npos ? at : source.find(')', at + head.size());
  if (end == std::string::npos)
    return "its source declares no kernel '" + info.name + "' of " +
           std::to_string(info.blockSize) + " threads";
  std::vector<std::string> declared;
  std::istringstream list(
      source.substr(at + head.size(), end - at - head.size()));
  for (std::string param; std::getline(list, param, ',');) {
    size_t first = param.find_first_not_of(' ');
    declared.push_back(first == std::string::npos ? "" : param.substr(first));
  }
  if (declared.size() != info.params.size())
    return "kernel '" + info.name + "' takes " +
           std::to_string(declared.size()) +
           " parameters, the manifest lists " +
           std::to_string(info.params.size());
  for (size_t i = 0; i < declared.size(); ++i) {
    const KernelParam &p = info.params[i];
    const std::string &decl = declared[i];
    size_t nameAt = decl.find_last_of(" *") + 1;
    bool pointer = decl.find('*') != std::string::npos;
    bool constant = decl.rfind("const ", 0) == 0;
    bool wide = decl.rfind("long long ", 0) == 0;
    using Kind = KernelParam::Kind;
    // A kernel for a fixed d leaves its d argument unnamed.
    bool unnamedD = p.kind == Kind::D && info.d && decl == "int";
    bool kindFits = p.isBuffer()        ? pointer && constant == !p.written
                    : p.kind == Kind::D ? decl.rfind("int", 0) == 0
                                        : wide && !pointer;
    if ((decl.substr(nameAt) != p.name && !unnamedD) || !kindFits)
      return "parameter " + std::to_string(i + 1) + " of kernel '" + info.name +
             "' is '" + decl + "' in its source, not the " + "manifest's '" +
             p.name + "'";
  }
  return "";
}

Pack normc::readPack(const std::string &dir) {
  fs::path root(dir), manifestPath = root / "manifest.txt";
  return parsePack(
      readPackFile(manifestPath), manifestPath.string(),
      [&](const std::string &file) { return readPackFile(root / file); });
}

Pack normc::parsePack(
    const std::string &manifestText, const std::string &manifestPath,
    const std::function<std::string(const std::string &file)> &readPackFile) {
  std::istringstream manifest(manifestText);
  Pack pack;
  std::string line;
  int lineNo = 0;
  auto fail = [&](const std::string &why) -> PackError {
    return PackError(manifestPath + ":" + std::to_string(lineNo) + ": " + why);
  };
  while (std::getline(manifest, line)) {
    ++lineNo;
    std::string word = line.substr(0, line.find(' '));
    std::string rest = line.size() > word.size() ? line.substr(word.size() + 1)
                                                 : std::string();
    if (lineNo == 1) {
      if (line != kMagic)
        throw fail("not a normc pack (expected '" + std::string(kMagic) + "')");
    } else if (word == "normc") {
      pack.normcVersion = rest;
    } else if (word == "d") {
      if (rest != "runtime") {
        std::optional<int64_t> d = parseWholeNumber(rest);
        if (!d || *d < 1 || *d > kMaxD)
          throw fail("d must be 'runtime' or a whole number in [1, " +
                     std::to_string(kMaxD) + "], got '" + rest + "'");
        pack.d = d;
      }
    } else if (word == "candidate") {
      std::string file = rest.substr(0, rest.find(' '));
      std::optional<Schedule> schedule =
          Schedule::parse(rest.size() > file.size()
                              ? std::string_view(rest).substr(file.size() + 1)
                              : std::string_view());
      if (file.empty() || file.find('/') != std::string::npos || !schedule ||
          !checkSchedule(*schedule).empty())
        throw fail("bad candidate line");
      pack.candidates.push_back(
          {*schedule, readPackFile(file), {}, Program::forward()});
    } else if (word == "program") {
      std::optional<Program> program = Program::parse(rest);
      if (!program || pack.candidates.empty() ||
          !pack.candidates.back().kernels.empty())
        throw fail("bad program line");
      pack.candidates.back().program = *program;
    } else if (word == "info") {
      std::optional<KernelLaunchInfo> info = kernelInfoFromText(rest);
      if (!info || pack.candidates.empty())
        throw fail("bad info line");
      if (info->d != pack.d)
        throw fail("the kernel's d (" +
                   (info->d ? std::to_string(*info->d) : "runtime") +
                   ") is not the pack's");
      std::string mismatch =
          declarationMismatch(pack.candidates.back().source, *info);
      if (!mismatch.empty())
        throw fail(mismatch);
      pack.candidates.back().kernels.push_back(*info);
    } else if (!line.empty()) {
      throw fail("unknown line '" + word + "'");
    }
  }
  if (lineNo == 0)
    throw fail("empty manifest");
  if (pack.candidates.empty())
    throw fail("no candidates");
  // Every candidate of a program takes the same arguments: hosts size and
  // pass them from one signature.
  std::map<std::string, Signature> signatures;
  for (const PackCandidate &c : pack.candidates) {
    if (c.kernels.empty())
      throw fail("a candidate has no info line");
    Signature signature = signatureOf(c.kernels);
    auto [first, inserted] = signatures.emplace(c.program.str(), signature);
    auto same = [](const Argument &a, const Argument &b) {
      return a.name == b.name && a.elementType == b.elementType &&
             a.dims == b.dims && a.groupSize == b.groupSize &&
             a.written == b.written && a.strided == b.strided;
    };
    if (!inserted &&
        !std::equal(signature.begin(), signature.end(), first->second.begin(),
                    first->second.end(), same))
      throw fail("the " + c.program.str() +
                 " candidates do not all take the same arguments");
  }
  pack.specToml = readPackFile("spec.toml");
  return pack;
}
