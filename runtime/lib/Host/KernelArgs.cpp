//===- KernelArgs.cpp - Pack a kernel's arguments cuLaunchKernel-style ----===//
#include "normc/Runtime/Host/KernelArgs.h"
#include "normc/Abi/Schedule.h"

#include <cstring>
#include <stdexcept>

using namespace normc;

std::string normc::shapeProblem(int64_t rows, int64_t d) {
  std::string shape =
      "invalid shape [" + std::to_string(rows) + ", " + std::to_string(d) + "]";
  if (rows < 0)
    return shape + ": rows must be at least 0";
  if (d < 1 || d > kMaxD)
    return shape + ": d must be in [1, " + std::to_string(kMaxD) +
           "], the widest row a kernel is made for";
  return "";
}

PackedArgs::PackedArgs(const KernelLaunchInfo &info, const KernelArgs &args)
    : slots(info.params.size()), pointers(info.params.size()) {
  if (info.d && *info.d != args.d)
    throw std::invalid_argument(
        "kernel '" + info.name + "' is specialized for d = " +
        std::to_string(*info.d) + ", got d = " + std::to_string(args.d));
  std::string problem = shapeProblem(args.rows, args.d);
  if (!problem.empty())
    throw std::invalid_argument(problem);
  for (size_t i = 0; i < info.params.size(); ++i) {
    const KernelParam &param = info.params[i];
    uint64_t &slot = slots[i];
    pointers[i] = &slot;
    switch (param.kind) {
    case KernelParam::Kind::Rows:
    case KernelParam::Kind::Features:
    case KernelParam::Kind::Stats:
    case KernelParam::Kind::Partials:
    case KernelParam::Kind::Scalar:
    case KernelParam::Kind::Groups: {
      auto it = args.buffers.find(param.name);
      bool missing = it == args.buffers.end() || !it->second;
      // With no rows, a row buffer holds nothing (and may be null, as
      // empty tensors' storage is).
      bool perRow = param.kind == KernelParam::Kind::Rows ||
                    param.kind == KernelParam::Kind::Stats ||
                    param.kind == KernelParam::Kind::Groups;
      if (missing && perRow && args.rows == 0) {
        slot = 0;
        break;
      }
      if (missing)
        throw std::invalid_argument("kernel '" + info.name +
                                    "' needs buffer '" + param.name + "'");
      std::memcpy(&slot, &it->second, sizeof(void *));
      break;
    }
    case KernelParam::Kind::RowStride: {
      std::string buffer = param.name.substr(0, param.name.size() - 7);
      auto it = args.strides.find(buffer);
      int64_t stride = it == args.strides.end() ? args.d : it->second;
      if (stride < args.d)
        throw std::invalid_argument("row stride of '" + buffer + "' (" +
                                    std::to_string(stride) +
                                    ") is smaller than d");
      std::memcpy(&slot, &stride, sizeof(stride));
      break;
    }
    case KernelParam::Kind::RowCount:
      std::memcpy(&slot, &args.rows, sizeof(args.rows));
      break;
    case KernelParam::Kind::D: {
      int32_t d = static_cast<int32_t>(args.d);
      std::memcpy(&slot, &d, sizeof(d));
      break;
    }
    }
  }
}

std::vector<std::unique_ptr<PackedArgs>>
normc::packLaunches(const std::vector<KernelLaunchInfo> &sequence,
                    const std::vector<KernelLaunch> &plan, KernelArgs args) {
  std::vector<std::unique_ptr<PackedArgs>> packed;
  for (const KernelLaunch &step : plan) {
    args.rows = step.rows;
    packed.push_back(std::make_unique<PackedArgs>(sequence[step.kernel], args));
  }
  return packed;
}
