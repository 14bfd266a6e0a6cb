//===- Pack.cpp - Kernel packs: every candidate of a spec, ready to ship --===//
#include "normc/Runtime/Pack.h"
#include "normc/Abi/ReadFile.h"

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace normc;
namespace fs = std::filesystem;

static const char kMagic[] = "normc-pack 1";

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

void normc::writePack(const std::string &dir, const Pack &pack) {
  fs::path target = fs::absolute(dir);
  if (fs::exists(target) && !fs::exists(target / "manifest.txt"))
    throw PackError(dir + ": exists and is not a pack; not replacing it");
  std::ostringstream manifest;
  manifest << kMagic << "\nnormc " << pack.normcVersion << "\ncols "
           << (pack.cols ? std::to_string(*pack.cols) : "runtime") << "\n";
  std::error_code ec;
  fs::path staging = target;
  staging += ".tmp-" + std::to_string(std::random_device{}());
  fs::create_directories(staging, ec);
  if (ec)
    throw PackError(staging.string() + ": " + ec.message());
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
    bool replaced = fs::exists(target);
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
  } catch (const fs::filesystem_error &error) {
    fs::remove_all(staging, ec);
    throw PackError(dir + ": " + error.what());
  } catch (...) {
    fs::remove_all(staging, ec);
    throw;
  }
}

Pack normc::readPack(const std::string &dir) {
  fs::path root(dir), manifestPath = root / "manifest.txt";
  std::istringstream manifest(readPackFile(manifestPath));
  Pack pack;
  std::string line;
  int lineNo = 0;
  auto fail = [&](const std::string &why) -> PackError {
    return PackError(manifestPath.string() + ":" + std::to_string(lineNo) +
                     ": " + why);
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
    } else if (word == "cols") {
      if (rest != "runtime") {
        try {
          pack.cols = std::stoll(rest);
        } catch (const std::exception &) {
          throw fail("bad cols '" + rest + "'");
        }
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
          {*schedule, readPackFile(root / file), {}, Program::forward()});
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
      pack.candidates.back().kernels.push_back(*info);
    } else if (!line.empty()) {
      throw fail("unknown line '" + word + "'");
    }
  }
  if (lineNo == 0)
    throw fail("empty manifest");
  if (pack.candidates.empty())
    throw fail("no candidates");
  for (const PackCandidate &c : pack.candidates)
    if (c.kernels.empty())
      throw fail("a candidate has no info line");
  pack.specToml = readPackFile(root / "spec.toml");
  return pack;
}
