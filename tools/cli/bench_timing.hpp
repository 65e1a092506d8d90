// The measuring instrument of `tileops bench`: device time of one op call with the L2 flushed
// before every iteration, median and spread over many iterations, and the same measurement of a
// device-to-device copy of the same bytes (the practical floor of a memory-bound op).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tileops/core/tensor.hpp"

namespace tileops::cli {

// One figure over the iterations, in microseconds.
struct Spread {
  double median_us = 0;
  double p10_us = 0;
  double p90_us = 0;
};

struct Timing {
  // The headline figure: busy with kernel records, the event interval without them.
  double median_us = 0;
  double p10_us = 0;
  double p90_us = 0;
  // With kernel records (CUPTI): the sum of the call's kernel, memcpy and memset durations, and
  // its first record's start to its last record's end. With events or on the CPU both are the
  // measured interval.
  Spread busy;
  Spread wall;
  double kernels = 0;           // records per call, median; 0 without kernel records
  bool kernel_records = false;  // whether CUPTI measured
  int iterations = 0;
  std::string method;  // how the time was taken, and why CUPTI did not take it when it did not
};

struct TimingOptions {
  int warmup = 5;
  int iterations = 50;
  bool flush_l2 = true;
};

// Times fn on device. CUDA, with CUPTI (unless TILEOPS_BENCH_TIMER=events): per iteration a
// 256 MB memset, a synchronize, fn, a synchronize, and fn's kernel records. CUDA without CUPTI:
// event pairs around each call after the memset, which keeps the device busy while the host
// enqueues the call (the interval still holds a launch). CPU: steady_clock around each call.
Timing time_calls(Device device, const std::function<void()>& fn, const TimingOptions& options);

// A device-to-device copy moving `bytes` in all (half read, half written), timed like an op.
Timing time_copy(Device device, int64_t bytes, const TimingOptions& options);

// Host time of one call (nothing waited for), median over iterations: the op layer's overhead
// when the device queue absorbs the kernel.
double host_call_us(const std::function<void()>& fn, int iterations);

}  // namespace tileops::cli
