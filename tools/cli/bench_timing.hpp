// The measuring instrument of `tileops bench`: device time of one op call with the L2 flushed
// before every iteration, median and spread over many iterations, and the same measurement of a
// device-to-device copy of the same bytes (the practical floor of a memory-bound op).
#pragma once

#include <functional>
#include <vector>

#include "tileops/core/tensor.hpp"

namespace tileops::cli {

struct Timing {
  double median_us = 0;
  double p10_us = 0;
  double p90_us = 0;
  int iterations = 0;
  const char* method = "";  // how the time was taken
};

struct TimingOptions {
  int warmup = 5;
  int iterations = 50;
  bool flush_l2 = true;
};

// Times fn on device (CUDA: event pairs around each call, a 256 MB memset before each; the memset
// keeps the device busy while the host enqueues the call, so the interval is device time, not
// launch latency. CPU: steady_clock around each call).
Timing time_calls(Device device, const std::function<void()>& fn, const TimingOptions& options);

// A device-to-device copy moving `bytes` in all (half read, half written), timed like an op.
Timing time_copy(Device device, int64_t bytes, const TimingOptions& options);

// Host time of one call (nothing waited for), median over iterations: the op layer's overhead
// when the device queue absorbs the kernel.
double host_call_us(const std::function<void()>& fn, int iterations);

}  // namespace tileops::cli
