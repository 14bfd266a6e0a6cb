//===- Nvrtc.cpp - Compile emitted CUDA source with NVRTC -----------------===//
#include "normc/Runtime/Nvrtc/Nvrtc.h"

#include <nvrtc.h>

#include <cstdlib>
#include <regex>

using namespace normc;

static std::string includeDir() {
  if (const char *dir = std::getenv("NORMC_CUDA_INCLUDE_DIR"))
    return dir;
  return NORMC_CUDA_INCLUDE_DIR;
}

bool nvrtc::isValidArch(const std::string &arch) {
  return std::regex_match(arch, std::regex("sm_[0-9]{2,3}[af]?"));
}

int nvrtc::smVersion(const std::string &arch) {
  return isValidArch(arch) ? std::atoi(arch.c_str() + 3) : 0;
}

const std::vector<std::string> &nvrtc::fixedOptions() {
  // Every rounding is the IR's: no contraction into fma, correctly rounded
  // division and square root, subnormals kept. The CPU device's compile
  // line says the same (cpu::precompileRequest), so both give one answer.
  static const std::vector<std::string> options = {
      "--std=c++17", "--fmad=false", "--prec-div=true", "--prec-sqrt=true",
      "--ftz=false"};
  return options;
}

nvrtc::Result nvrtc::compile(const std::string &source,
                             const std::string &fileName,
                             const Options &options) {
  Result result;
  if (!isValidArch(options.arch)) {
    result.error = "invalid architecture '" + options.arch +
                   "'; expected sm_XX such as sm_80 or sm_90";
    return result;
  }
  nvrtcProgram program;
  nvrtcResult status = nvrtcCreateProgram(
      &program, source.c_str(), fileName.c_str(), 0, nullptr, nullptr);
  if (status != NVRTC_SUCCESS) {
    result.error = nvrtcGetErrorString(status);
    return result;
  }
  std::string arch = options.arch;
  if (options.target == Target::Ptx)
    arch.replace(0, 2, "compute");
  std::vector<std::string> args = {"--gpu-architecture=" + arch,
                                   "--include-path=" + includeDir()};
  const std::vector<std::string> &fixed = fixedOptions();
  args.insert(args.end(), fixed.begin(), fixed.end());
  if (options.target == Target::Cubin)
    args.push_back("--ptxas-options=-v");
  args.insert(args.end(), options.extra.begin(), options.extra.end());
  std::vector<const char *> argv;
  for (const std::string &arg : args)
    argv.push_back(arg.c_str());

  status =
      nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());
  size_t logSize = 0;
  nvrtcGetProgramLogSize(program, &logSize);
  result.log.resize(logSize);
  if (logSize)
    nvrtcGetProgramLog(program, result.log.data());
  while (!result.log.empty() && result.log.back() == '\0')
    result.log.pop_back();
  if (status != NVRTC_SUCCESS) {
    result.error = std::string(nvrtcGetErrorString(status)) + " for " + arch;
    nvrtcDestroyProgram(&program);
    return result;
  }
  size_t size = 0;
  if (options.target == Target::Ptx) {
    nvrtcGetPTXSize(program, &size);
    result.binary.resize(size);
    nvrtcGetPTX(program, result.binary.data());
    while (!result.binary.empty() && result.binary.back() == '\0')
      result.binary.pop_back();
  } else {
    nvrtcGetCUBINSize(program, &size);
    result.binary.resize(size);
    nvrtcGetCUBIN(program, result.binary.data());
  }
  nvrtcDestroyProgram(&program);
  result.ok = true;
  return result;
}

std::string nvrtc::version() {
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

long nvrtc::spillBytes(const std::string &log) {
  static const std::regex spill(
      R"((\d+) bytes spill stores, (\d+) bytes spill loads)");
  long total = -1;
  for (auto it = std::sregex_iterator(log.begin(), log.end(), spill);
       it != std::sregex_iterator(); ++it) {
    total = std::max(total, 0L);
    total += std::stol((*it)[1]) + std::stol((*it)[2]);
  }
  return total;
}
