//===- MutationTest.cpp - Hand-broken kernels must fail -------------------===//
//
// Each test first runs the intact kernel (which must pass), then a broken
// one, which must fail: a wrong result beyond the bound or a launch error
// from the CPU device, under at least one lane order.
//
//===----------------------------------------------------------------------===//
#include "NumericsUtil.h"

#include "normc/Runtime/Cpu/CpuDevice.h"

#include <gtest/gtest.h>

#include <regex>

using namespace normc;
using namespace normc::test;

namespace {

double worstOverOrders(const dsl::Spec &spec, const CaseData &data,
                       std::string (*mutate)(const std::string &),
                       bool specialize = true) {
  RunOptions options;
  options.specialize = specialize;
  options.mutateSource = mutate;
  return worstOverLaneOrders(spec, data, options);
}

std::string identity(const std::string &source) { return source; }

/// Deletes the barrier between writing the warps' partial sums and reading
/// them.
std::string dropFirstBarrier(const std::string &source) {
  std::string marker = "__syncthreads();\n";
  size_t at = source.find(marker);
  EXPECT_NE(at, std::string::npos);
  return source.substr(0, at) + source.substr(at + marker.size());
}

/// Deletes the barrier after the first read of the reduction scratch, the
/// one that keeps the second reduction from overwriting it too early.
std::string dropBarrierAfterFirstRead(const std::string &source) {
  std::string marker = "__syncthreads();\n";
  size_t first = source.find(marker);
  size_t second = source.find(marker, first + marker.size());
  EXPECT_NE(second, std::string::npos);
  return source.substr(0, second) + source.substr(second + marker.size());
}

/// The first butterfly step exchanges with the wrong lane.
std::string wrongShuffleOffset(const std::string &source) {
  std::smatch match;
  std::regex first(R"(__shfl_xor_sync\(0xffffffffu, (s\d+), 16\))");
  EXPECT_TRUE(std::regex_search(source, match, first));
  return std::regex_replace(source, first,
                            "__shfl_xor_sync(0xffffffffu, $1, 15)",
                            std::regex_constants::format_first_only);
}

/// The statistics use every feature instead of the first k.
std::string ignoreFraction(const std::string &source) {
  std::regex count(R"(\(int\)floor\([0-9.e+-]+ \* \(double\)d\))");
  EXPECT_TRUE(std::regex_search(source, count));
  return std::regex_replace(source, count, "d");
}

const std::string kAsyncWait = "normc_async_wait();\n";

/// Deletes each thread's wait for its asynchronous copies into shared
/// memory.
std::string dropAsyncWait(const std::string &source) {
  size_t at = source.find(kAsyncWait);
  EXPECT_NE(at, std::string::npos);
  if (at == std::string::npos)
    return source;
  return source.substr(0, at) + source.substr(at + kAsyncWait.size());
}

/// Moves that wait after the pass that first reads the staged row: the
/// loop right after it, which ends at the first brace at the wait's
/// indentation.
std::string waitTooLate(const std::string &source) {
  std::string moved = dropAsyncWait(source);
  size_t at = source.find(kAsyncWait);
  if (at == std::string::npos)
    return moved;
  size_t lineStart = source.rfind('\n', at) + 1;
  std::string indent = source.substr(lineStart, at - lineStart);
  size_t close = moved.find("\n" + indent + "}\n", at);
  EXPECT_NE(close, std::string::npos);
  if (close == std::string::npos)
    return moved;
  return moved.insert(close + indent.size() + 3, indent + kAsyncWait);
}

TEST(Mutations, MissingOrLateAsyncWaitIsCaught) {
  // Rows staged in shared memory by asynchronous copies: a thread that
  // reads its chunks before they land sees NaN (a fresh block) or the last
  // row's values, and one that ends with copies in flight fails the launch.
  dsl::Spec spec = loadShippedSpec("llama_rmsnorm");
  CaseData data = makeCase(spec, 5, 4096, 47);
  ScheduleRequest shared;
  shared.rowStorage = RowStorage::Shared;
  for (bool specialize : {true, false}) {
    RunOptions options;
    options.specialize = specialize;
    options.schedule = ScheduleOptions(shared);
    options.mutateSource = identity;
    EXPECT_LE(worstOverLaneOrders(spec, data, options), 1.0);
    options.mutateSource = dropAsyncWait;
    EXPECT_GT(worstOverLaneOrders(spec, data, options), 1.0);
    options.mutateSource = waitTooLate;
    EXPECT_GT(worstOverLaneOrders(spec, data, options), 1.0);
  }
}

TEST(Mutations, MissingBarrierIsCaught) {
  dsl::Spec spec = loadShippedSpec("layernorm"); // 256 threads a row at d=4096
  CaseData data = makeCase(spec, 4, 4096, 23);
  EXPECT_LE(worstOverOrders(spec, data, identity), 1.0);
  EXPECT_GT(worstOverOrders(spec, data, dropFirstBarrier), 1.0);
}

TEST(Mutations, WrongShuffleOffsetIsCaught) {
  dsl::Spec spec = loadShippedSpec("llama_rmsnorm");
  CaseData data = makeCase(spec, 3, 4096, 29);
  // Lanes 0-15 of each warp load small values, lanes 16-31 large ones (8
  // features per access), so a reduction that misses half the lanes cannot
  // land near the right sum by chance.
  for (size_t i = 0; i < data.x.size(); ++i)
    data.x[i] = (i % data.d) / 8 % 32 < 16 ? 0.125 : 3.0;
  EXPECT_LE(worstOverOrders(spec, data, identity), 1.0);
  EXPECT_GT(worstOverOrders(spec, data, wrongShuffleOffset), 1.0);
}

TEST(Mutations, IgnoredFractionIsCaught) {
  dsl::Spec spec = loadShippedSpec("prmsnorm");
  CaseData data = makeCase(spec, 3, 4096, 31);
  EXPECT_LE(worstOverOrders(spec, data, identity, false), 1.0);
  EXPECT_GT(worstOverOrders(spec, data, ignoreFraction, false), 1.0);
}

TEST(Mutations, MissingBarrierBeforeTheScratchIsReusedIsCaught) {
  // LayerNorm reduces twice through one scratch array: without the barrier
  // after the first read, a warp that runs ahead overwrites the scratch
  // with its second partial sum while another warp still reads the first
  // (a write-after-read hazard).
  dsl::Spec spec = loadShippedSpec("layernorm");
  CaseData data = makeCase(spec, 4, 4096, 43);
  EXPECT_LE(worstOverOrders(spec, data, identity), 1.0);
  EXPECT_GT(worstOverOrders(spec, data, dropBarrierAfterFirstRead), 1.0);
}

} // namespace
