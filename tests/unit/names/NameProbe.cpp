//===- NameProbe.cpp - Compiling kernels named like what headers declare --===//
#include "NameProbe.h"

#include "HostCompiler.h"
#include "normc/Abi/Program.h"
#include "normc/Dsl/Spec.h"
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Policy/Candidates.h"
#include "normc/Policy/Heuristic.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

std::set<std::string> normc::test::identifiersIn(std::string_view text) {
  std::set<std::string> ids;
  auto word = [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
  };
  for (size_t i = 0; i < text.size();) {
    if (!word(text[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && word(text[end]))
      ++end;
    if (!std::isdigit(static_cast<unsigned char>(text[i])))
      ids.emplace(text.substr(i, end - i));
    i = end;
  }
  return ids;
}

static std::string readAll(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::set<std::string>
normc::test::cudaHeaderIdentifiers(const std::string &includeDir) {
  std::set<std::string> ids;
  for (const fs::path &dir :
       {fs::path(includeDir), fs::path(includeDir) / "crt"})
    for (const fs::directory_entry &entry : fs::directory_iterator(dir)) {
      std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".h" || ext == ".hpp"))
        ids.merge(identifiersIn(readAll(entry.path())));
    }
  if (ids.empty())
    throw std::runtime_error("no CUDA headers in " + includeDir);
  return ids;
}

/// CpuCuda.h as the CPU device compiles it, preprocessed (`-E`) or as the
/// macros it leaves defined (`-E -dM`).
static std::string preprocessCpuHeader(const std::string &cpuHeaderDir,
                                       const std::string &cudaIncludeDir,
                                       bool macros) {
  std::vector<std::string> argv = {"c++",
                                   "-std=c++17",
                                   "-DNORMC_CPU",
                                   "-include",
                                   cpuHeaderDir + "/CpuCuda.h",
                                   "-I" + cudaIncludeDir,
                                   "-E"};
  if (macros)
    argv.push_back("-dM");
  argv.insert(argv.end(), {"-x", "c++", "/dev/null"});
  normc::cpu::ProcessResult result = normc::cpu::runProcess(argv);
  if (!result.started || result.exitStatus != 0)
    throw std::runtime_error("cannot preprocess CpuCuda.h: " + result.output);
  return result.output;
}

std::set<std::string>
normc::test::cpuHeaderIdentifiers(const std::string &cpuHeaderDir,
                                  const std::string &cudaIncludeDir) {
  std::set<std::string> ids;
  for (bool macros : {false, true}) {
    // Line markers (# 1 "file") name files, not declarations.
    std::string text = std::regex_replace(
        preprocessCpuHeader(cpuHeaderDir, cudaIncludeDir, macros),
        std::regex("^# [0-9]+ \"[^\"]*\".*$", std::regex::multiline), "");
    ids.merge(identifiersIn(text));
  }
  return ids;
}

std::set<std::string>
normc::test::cpuObjectMacros(const std::string &cpuHeaderDir,
                             const std::string &cudaIncludeDir) {
  std::set<std::string> names;
  std::string text = preprocessCpuHeader(cpuHeaderDir, cudaIncludeDir, true);
  std::regex objectLike("^#define ([A-Za-z_][A-Za-z0-9_]*)(?: |$)",
                        std::regex::multiline);
  for (std::sregex_iterator m(text.begin(), text.end(), objectLike), e; m != e;
       ++m)
    names.insert((*m)[1]);
  return names;
}

std::set<std::string> normc::test::headerIdentifiers() {
  std::set<std::string> ids = cudaHeaderIdentifiers(NORMC_CPU_CUDA_INCLUDE_DIR);
  ids.merge(
      cpuHeaderIdentifiers(NORMC_CPU_HEADER_DIR, NORMC_CPU_CUDA_INCLUDE_DIR));
  return ids;
}

std::vector<std::string> normc::test::realModules(bool everyCandidate) {
  std::vector<std::string> modules;
  int serial = 0;
  for (const char *spec : {"layernorm", "fused_add_rmsnorm", "gemma_rmsnorm",
                           "partial_layernorm"}) {
    dsl::SpecParseResult parsed =
        dsl::parseSpecFile(std::string(NORMC_SPECS_DIR) + "/" + spec + ".toml");
    if (!parsed.spec)
      throw std::runtime_error(std::string("cannot read spec ") + spec);
    std::vector<Program> programs = {Program::forward()};
    for (const Program &p : Program::backwards(parsed.spec->residualAdd.value))
      programs.push_back(p);
    for (std::optional<int64_t> d :
         {std::optional<int64_t>(), std::optional<int64_t>(4096)})
      for (const Program &program : programs) {
        std::string errors;
        std::unique_ptr<SpecCompilation> compilation =
            SpecCompilation::create(*parsed.spec, d, errors, program);
        if (!compilation)
          throw std::runtime_error(errors);
        // Every strategy the tuner may pick: its candidates differ in how
        // they keep, stage and reduce the row.
        std::vector<Schedule> schedules = {
            defaultSchedule(compilation->problem())};
        if (everyCandidate)
          schedules = scheduleCandidates(compilation->problem());
        for (const Schedule &schedule : schedules) {
          std::optional<EmittedModule> module = compilation->emitModule(
              schedule, errors, "probe_" + std::to_string(serial++));
          if (module)
            modules.push_back(module->source);
        }
      }
  }
  return modules;
}

/// Where a module's kernels begin (its prelude ends).
static size_t kernelsBegin(const std::string &module) {
  size_t at = module.find("\n// kernel ");
  if (at == std::string::npos)
    throw std::runtime_error("an emitted module without kernels");
  return at + 1;
}

normc::test::Probe
normc::test::kernelsNamed(const std::vector<std::string> &names,
                          const std::vector<std::string> &modules) {
  Probe probe;
  probe.names = names;
  const std::string &first = modules.at(0);
  probe.source = first.substr(0, kernelsBegin(first));
  probe.firstLine = static_cast<int>(std::count(probe.source.begin(),
                                                probe.source.end(), '\n')) +
                    1;
  for (const std::string &name : names)
    probe.source +=
        "NORMC_KERNEL(32, " + name + ")(float *p) { p[threadIdx.x] = 1.0f; }\n";
  for (const std::string &module : modules)
    probe.source += module.substr(kernelsBegin(module));
  return probe;
}

normc::test::Failures normc::test::namesFailing(const Probe &probe,
                                                const std::string &file,
                                                const std::string &log) {
  std::regex nvrtc(file + "\\(([0-9]+)\\): error: (.*)");
  std::regex gcc(file + ":([0-9]+):[0-9]+: (?:error|note: in expansion of "
                        "macro).*?(.*)");
  std::regex quoted("[\"'‘’]([A-Za-z_][A-Za-z0-9_]*)[\"'‘’]");
  std::set<std::string> atLine, quotedInKernels;
  Failures result;
  std::set<std::string> names(probe.names.begin(), probe.names.end());
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, nvrtc) && !std::regex_search(line, m, gcc))
      continue;
    long index = std::stol(m[1]) - probe.firstLine;
    if (index >= 0 && index < static_cast<long>(probe.names.size())) {
      atLine.insert(probe.names[index]);
      continue;
    }
    // An error in a real kernel: a name hid something its body uses.
    bool explained = false;
    std::string message = m[2];
    for (std::sregex_iterator q(message.begin(), message.end(), quoted), e;
         q != e; ++q)
      if (names.count((*q)[1])) {
        quotedInKernels.insert((*q)[1]);
        explained = true;
      }
    if (!explained && line.find("error") != std::string::npos)
      result.unexplained = true;
  }
  // A name whose own line fails may be what broke a real kernel too, so the
  // names a kernel's error quotes count only when no line failed.
  result.quoted = atLine.empty();
  const std::set<std::string> &failing =
      result.quoted ? quotedInKernels : atLine;
  result.names.assign(failing.begin(), failing.end());
  return result;
}
