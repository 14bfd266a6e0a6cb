//===- HeaderNamesTest.cpp - Kernel names against what headers declare ---===//
//
// Every identifier the CUDA toolkit's headers and the CPU device's headers
// spell, if checkEmittedName accepts it as a kernel name, compiles as one in
// front of real emitted kernels: with NVRTC for sm_80 and sm_90, and on the
// CPU device. A new toolkit that declares more fails here, naming what to
// add (scripts/update-cuda-names.sh regenerates the list).
//
//===----------------------------------------------------------------------===//
#include "NameProbe.h"

#include "normc/Abi/Program.h"
#include "normc/Abi/ReservedNames.h"
#include "normc/Dsl/Spec.h"
#include "normc/Frontend/SpecCompiler.h"
#include "normc/Policy/Heuristic.h"
#include "normc/Runtime/Cpu/CpuDevice.h"
#include "normc/Runtime/Nvrtc/Nvrtc.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

using namespace normc;
using namespace normc::test;

namespace {

class HeaderNames : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    cudaIds = new std::set<std::string>(
        cudaHeaderIdentifiers(NORMC_CPU_CUDA_INCLUDE_DIR));
    std::vector<std::string> accepted;
    for (const std::string &name : headerIdentifiers())
      if (checkEmittedName(name, EmittedName::Kernel).empty())
        accepted.push_back(name);
    probe = new Probe(kernelsNamed(accepted, realModules(true)));
    // On the CPU a kernel's name cannot hide what a body uses (it gets a
    // prefix), so the default kernels suffice there.
    cpuProbe = new Probe(kernelsNamed(accepted, realModules(false)));
  }
  static void TearDownTestSuite() {
    delete probe;
    delete cpuProbe;
    delete cudaIds;
  }

  static void expectCompiles(bool ok, const Probe &probe,
                             const std::string &file, const std::string &log) {
    if (ok)
      return;
    Failures failing = namesFailing(probe, file, log);
    std::string names;
    for (const std::string &name : failing.names)
      names += " " + name;
    ADD_FAILURE() << failing.names.size()
                  << " accepted kernel names do not compile:" << names
                  << (failing.unexplained ? "\n(and errors no name explains)"
                                          : "")
                  << "\nrun scripts/update-cuda-names.sh\n"
                  << log.substr(0, 4000);
  }

  static std::set<std::string> *cudaIds;
  static Probe *probe;
  static Probe *cpuProbe;
};
std::set<std::string> *HeaderNames::cudaIds = nullptr;
Probe *HeaderNames::probe = nullptr;
Probe *HeaderNames::cpuProbe = nullptr;

TEST_F(HeaderNames, TheProbeCoversTheHeaders) {
  // Not vacuous: thousands of names, the real kernels after them, and the
  // names the issue found breaking compiles among the rejected ones.
  EXPECT_GT(probe->names.size(), 20000u);
  EXPECT_NE(probe->source.find("NORMC_KERNEL(32, gamma)"), std::string::npos);
  EXPECT_NE(probe->source.find("NORMC_KERNEL(32, exit)"), std::string::npos);
  EXPECT_NE(probe->source.find("NORMC_KERNEL(32, uint4)"), std::string::npos);
  EXPECT_NE(probe->source.find("_finish)("), std::string::npos);
  for (const char *name : {"printf", "malloc", "NULL", "dim3", "half", "std",
                           "threadIdx", "sqrtf", "NV_IF_TARGET"})
    EXPECT_FALSE(checkEmittedName(name, EmittedName::Kernel).empty()) << name;
}

TEST_F(HeaderNames, TheListIsSortedAndNamesHeaderIdentifiers) {
  EXPECT_TRUE(isSortedCudaDeclared());
  size_t listed = 0;
  for (const std::string &name : *cudaIds)
    listed += isCudaDeclared(name);
  // The lookup finds the headers' names (the list has 1076; staleness is
  // not checked here, only that accepted names compile, below).
  EXPECT_GT(listed, 500u);
  for (const char *name : {"printf", "uint4x", "gamma", "exit"})
    EXPECT_EQ(isCudaDeclared(name), std::string(name) == "printf") << name;
}

TEST_F(HeaderNames, AcceptedNamesCompileWithNvrtc) {
  for (const char *arch : {"sm_80", "sm_90"}) {
    nvrtc::Options options;
    options.arch = arch;
    options.extra = {"-fdevice-syntax-only"};
    nvrtc::Result result = nvrtc::compile(probe->source, "names.cu", options);
    SCOPED_TRACE(arch);
    expectCompiles(result.ok, *probe, "names[.]cu",
                   result.error + "\n" + result.log);
  }
}

TEST_F(HeaderNames, AcceptedNamesCompileOnTheCpuDevice) {
  std::string dir = ::testing::TempDir() + "/normc-names-XXXXXX";
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  cpu::CompileOptions options;
  options.cacheDir = dir;
  try {
    cpu::CpuModule module = cpu::CpuModule::compile(cpuProbe->source, options);
    // The real kernels are there under the names users look up.
    module.kernel("probe_0");
  } catch (const cpu::CpuCompileError &e) {
    expectCompiles(false, *cpuProbe, "[^ :(]*[.]cpp",
                   std::string(e.what()) + "\n" + e.compilerOutput());
  } catch (const cpu::CpuLaunchError &e) {
    ADD_FAILURE() << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(ParameterNames, NoMacroOfTheCpuDeviceCanExpandOne) {
  // Parameters are lower case; CpuCuda.h undefines the C library's few
  // lower-case object-like macros (a parameter's derived locals, NAME_row,
  // ..., are lower case too).
  std::set<std::string> macros =
      cpuObjectMacros(NORMC_CPU_HEADER_DIR, NORMC_CPU_CUDA_INCLUDE_DIR);
  EXPECT_GT(macros.size(), 1000u); // the enumeration works
  for (const std::string &name : macros)
    EXPECT_FALSE(checkEmittedName(name, EmittedName::Parameter).empty())
        << name << " is a macro on the CPU device";
  EXPECT_EQ(checkEmittedName("dgamma_partials", EmittedName::Parameter), "");
  EXPECT_EQ(checkEmittedName("Gamma", EmittedName::Parameter),
            "must be lower case ([a-z0-9_]), as the buffers the runtime binds "
            "are");
}

TEST(KernelSymbols, AreTheOnesTheSpecReaderChecks) {
  // The spec reader checks kernelSymbolsOf(name); the compiler must not
  // name a kernel anything else.
  dsl::SpecParseResult parsed =
      dsl::parseSpecFile(std::string(NORMC_SPECS_DIR) + "/layernorm.toml");
  ASSERT_TRUE(parsed.spec);
  std::vector<std::string> symbols = kernelSymbolsOf(parsed.spec->name.value);
  std::vector<std::string> named;
  for (const Program &program :
       {Program::forward(), Program::gradient(), Program::gradient(true)}) {
    std::string errors;
    std::unique_ptr<SpecCompilation> compilation =
        SpecCompilation::create(*parsed.spec, std::nullopt, errors, program);
    ASSERT_TRUE(compilation) << errors;
    std::optional<EmittedModule> module = compilation->emitModule(
        defaultSchedule(compilation->problem()), errors);
    ASSERT_TRUE(module) << errors;
    for (const KernelLaunchInfo &kernel : module->kernels)
      named.push_back(kernel.name);
  }
  EXPECT_EQ(named, (std::vector<std::string>{symbols[0], symbols[1], symbols[2],
                                             symbols[1], symbols[2]}));
}

} // namespace
