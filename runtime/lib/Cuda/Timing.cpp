//===- Timing.cpp - Kernel timing with CUDA events ------------------------===//
//
// All timed runs are queued before the first wait, each between its own
// pair of events, so the GPU seldom waits for the host inside a timed
// span; the L2 flush before each run lies outside it.
//
//===----------------------------------------------------------------------===//

#include "Context.h"
#include "Driver.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

using namespace normc::cuda;
using namespace normc::cuda::detail;

namespace {

/// A timing event of the current context, destroyed with the object.
class Event {
public:
  Event() {
    check(api().cuEventCreate(&event, CU_EVENT_DEFAULT), "cuEventCreate");
  }
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event() { api().cuEventDestroy(event); }

  /// Records on the default stream.
  void record() { check(api().cuEventRecord(event, nullptr), "cuEventRecord"); }
  CUevent get() const { return event; }

private:
  CUevent event = nullptr;
};

} // namespace

double normc::cuda::timeMedianMs(int ordinal, const std::function<void()> &run,
                                 int warmup, int repeats) {
  if (warmup < 0 || repeats < 1)
    throw std::invalid_argument(
        "timeMedianMs: needs warmup >= 0 and repeats >= 1, got warmup " +
        std::to_string(warmup) + " and repeats " + std::to_string(repeats));
  // Writing twice the L2's size evicts what the previous run left there.
  Buffer flush(ordinal, 2 * deviceInfo(ordinal).l2Bytes);
  for (int i = 0; i < warmup; ++i)
    run();

  makeCurrent(ordinal);
  std::vector<Event> starts(repeats), stops(repeats);
  for (int i = 0; i < repeats; ++i) {
    // `run` may have made another device's context current.
    makeCurrent(ordinal);
    if (flush.size())
      check(api().cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(flush.get()),
                                  static_cast<unsigned char>(i), flush.size(),
                                  nullptr),
            "cuMemsetD8Async");
    starts[i].record();
    run();
    makeCurrent(ordinal);
    stops[i].record();
  }
  check(api().cuEventSynchronize(stops.back().get()), "cuEventSynchronize");

  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) {
    float ms = 0;
    check(api().cuEventElapsedTime(&ms, starts[i].get(), stops[i].get()),
          "cuEventElapsedTime");
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  size_t middle = times.size() / 2;
  return times.size() % 2 ? times[middle]
                          : (times[middle - 1] + times[middle]) / 2;
}
