//===- InstrumentationTest.cpp - The sanitized suite runs sanitized kernels
//-===//
//
// Built into normc-numerics-sanitized only: the kernels that suite compiles
// (kernelCompileOptions) must carry AddressSanitizer's and UBSan's checks,
// or the suite would run uninstrumented kernels in an instrumented process
// and catch nothing in them.
//
//===----------------------------------------------------------------------===//
#include "NumericsUtil.h"

#include "normc/Frontend/SpecCompiler.h"
#include "normc/Runtime/Cpu/CpuDevice.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

using namespace normc;
using namespace normc::test;

namespace {

TEST(Instrumentation, TheProcessAndItsKernelsAreSanitized) {
#if !defined(__SANITIZE_ADDRESS__)
  FAIL() << "normc-numerics-sanitized was built without -fsanitize=address";
#endif
  std::string errors;
  auto compilation =
      SpecCompilation::create(loadShippedSpec("layernorm"), 1000, errors);
  ASSERT_TRUE(compilation) << errors;
  std::optional<EmittedModule> emitted =
      compilation->emitModule(ScheduleOptions{}, errors);
  ASSERT_TRUE(emitted) << errors;
  cpu::CpuModule module =
      cpu::CpuModule::compile(emitted->source, kernelCompileOptions());
  std::ifstream file(module.libraryPath(), std::ios::binary);
  std::string object((std::istreambuf_iterator<char>(file)),
                     std::istreambuf_iterator<char>());
  ASSERT_FALSE(object.empty()) << module.libraryPath();
  // The instrumentation calls into the sanitizers' runtimes by these names.
  EXPECT_NE(object.find("__asan_report_"), std::string::npos)
      << module.libraryPath() << " has no AddressSanitizer checks";
  EXPECT_NE(object.find("__ubsan_handle_"), std::string::npos)
      << module.libraryPath() << " has no UBSan checks";
}

} // namespace
