#include "bench_timing.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string_view>

#include <fmt/format.h>

#include "runtime/cuda/kernel_recorder.hpp"
#include "tileops/core/error.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cli {
namespace {

// values[q * (n - 1)], rounded, of the sorted values.
double quantile(std::vector<double>& values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[static_cast<size_t>(q * static_cast<double>(values.size() - 1) + 0.5)];
}

Spread spread_of(std::vector<double> us) {
  return {quantile(us, 0.5), quantile(us, 0.1), quantile(us, 0.9)};
}

// Busy and wall are the one measured interval.
Timing interval_timing(std::vector<double> us, std::string method) {
  Timing t;
  t.iterations = static_cast<int>(us.size());
  t.busy = t.wall = spread_of(std::move(us));
  t.median_us = t.busy.median_us;
  t.p10_us = t.busy.p10_us;
  t.p90_us = t.busy.p90_us;
  t.method = std::move(method);
  return t;
}

constexpr int64_t kFlushBytes = 256ll << 20;  // several times the H200's 50 MB L2

Tensor& flush_buffer(Device device) {
  static Tensor buffer;
  if (!buffer.defined() || buffer.device() != device) {
    buffer = Tensor::empty(Shape{kFlushBytes}, DType::kUInt8, device);
  }
  return buffer;
}

std::string flush_text(const TimingOptions& o) {
  return o.flush_l2 ? "L2 flushed (256 MB memset) before each call" : "L2 not flushed";
}

// CUPTI's recorder unless TILEOPS_BENCH_TIMER says events or CUPTI cannot record; then null,
// and why_not says why.
std::unique_ptr<cuda::KernelRecorder> kernel_recorder(std::string& why_not) {
  const char* choice = std::getenv("TILEOPS_BENCH_TIMER");
  const std::string_view timer = choice ? choice : "";
  if (timer == "events") {
    why_not = "TILEOPS_BENCH_TIMER=events";
    return nullptr;
  }
  if (!timer.empty() && timer != "cupti") {
    throw ValueError(fmt::format("TILEOPS_BENCH_TIMER={}: expected cupti or events", timer));
  }
  std::string reason;
  std::unique_ptr<cuda::KernelRecorder> recorder = cuda::KernelRecorder::start(reason);
  if (!recorder) why_not = "CUPTI unavailable: " + reason;
  return recorder;
}

// Each call alone on an idle device, so its records are its own: the flush's memset is
// delivered and dropped before the call is enqueued.
Timing time_with_records(Device device, cuda::KernelRecorder& recorder,
                         const std::function<void()>& fn, const TimingOptions& o) {
  std::vector<double> busy, wall, kernels;
  for (int i = 0; i < o.iterations; ++i) {
    if (o.flush_l2) cuda::fill_bytes(flush_buffer(device), static_cast<unsigned char>(i));
    cuda::synchronize(device.index);
    recorder.take();
    fn();
    cuda::synchronize(device.index);
    const cuda::ActivitySpan span = cuda::span_of(recorder.take());
    busy.push_back(span.busy_us);
    wall.push_back(span.wall_us);
    kernels.push_back(span.records);
  }
  Timing t;
  t.kernel_records = true;
  t.iterations = o.iterations;
  t.busy = spread_of(std::move(busy));
  t.wall = spread_of(std::move(wall));
  t.kernels = quantile(kernels, 0.5);
  t.median_us = t.busy.median_us;
  t.p10_us = t.busy.p10_us;
  t.p90_us = t.busy.p90_us;
  t.method =
      "CUPTI kernel records (busy: the sum of the call's kernel, memcpy and memset "
      "durations; wall: first start to last end), synchronized around each call, " +
      flush_text(o);
  return t;
}

Timing time_with_events(Device device, const std::function<void()>& fn, const TimingOptions& o,
                        const std::string& why_not_cupti) {
  cuda::StreamHandle stream = cuda::current_stream(device.index);
  std::vector<std::unique_ptr<cuda::EventTimer>> timers;
  for (int i = 0; i < o.iterations; ++i) {
    timers.push_back(std::make_unique<cuda::EventTimer>(device.index, stream));
    if (o.flush_l2) cuda::fill_bytes(flush_buffer(device), static_cast<unsigned char>(i));
    timers.back()->start();
    fn();
    timers.back()->stop();
  }
  std::vector<double> us;
  for (auto& t : timers) us.push_back(1000.0 * t->milliseconds());
  return interval_timing(std::move(us),
                         fmt::format("cuda events ({}), {}", why_not_cupti, flush_text(o)));
}

Timing time_on_cpu(const std::function<void()>& fn, const TimingOptions& o) {
  std::vector<double> us;
  for (int i = 0; i < o.iterations; ++i) {
    const auto start = std::chrono::steady_clock::now();
    fn();
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  return interval_timing(std::move(us), "steady_clock around each call (cpu)");
}

}  // namespace

Timing time_calls(Device device, const std::function<void()>& fn, const TimingOptions& o) {
  for (int i = 0; i < o.warmup; ++i) fn();
  if (device.type != kCUDA) return time_on_cpu(fn, o);
  cuda::synchronize(device.index);
  std::string why_not_cupti;
  if (std::unique_ptr<cuda::KernelRecorder> recorder = kernel_recorder(why_not_cupti))
    return time_with_records(device, *recorder, fn, o);
  return time_with_events(device, fn, o, why_not_cupti);
}

Timing time_copy(Device device, int64_t bytes, const TimingOptions& o) {
  const int64_t half = std::max<int64_t>(bytes / 2, 1);
  Tensor src = Tensor::empty(Shape{half}, DType::kUInt8, device);
  Tensor dst = Tensor::empty(Shape{half}, DType::kUInt8, device);
  if (device.type == kCUDA) {
    cuda::fill_bytes(src, 1);
    return time_calls(
        device, [&] { cuda::copy(dst, src); }, o);
  }
  return time_calls(
      device, [&] { dst.copy_from(src); }, o);
}

double host_call_us(const std::function<void()>& fn, int iterations) {
  std::vector<double> us;
  for (int i = 0; i < iterations; ++i) {
    const auto start = std::chrono::steady_clock::now();
    fn();
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(us.begin(), us.end());
  return us.empty() ? 0.0 : us[us.size() / 2];
}

}  // namespace tileops::cli
