#include "bench_timing.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "tileops/runtime/cuda.hpp"

namespace tileops::cli {
namespace {

Timing summarise(std::vector<double> us, const char* method) {
  Timing t;
  t.method = method;
  t.iterations = static_cast<int>(us.size());
  if (us.empty()) return t;
  std::sort(us.begin(), us.end());
  auto at = [&](double q) {
    return us[static_cast<size_t>(q * static_cast<double>(us.size() - 1) + 0.5)];
  };
  t.median_us = at(0.5);
  t.p10_us = at(0.1);
  t.p90_us = at(0.9);
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

}  // namespace

Timing time_calls(Device device, const std::function<void()>& fn, const TimingOptions& o) {
  for (int i = 0; i < o.warmup; ++i) fn();
  std::vector<double> us;
  if (device.type == kCUDA) {
    cuda::synchronize(device.index);
    cuda::StreamHandle stream = cuda::current_stream(device.index);
    std::vector<std::unique_ptr<cuda::EventTimer>> timers;
    for (int i = 0; i < o.iterations; ++i) {
      timers.push_back(std::make_unique<cuda::EventTimer>(device.index, stream));
      if (o.flush_l2) cuda::fill_bytes(flush_buffer(device), static_cast<unsigned char>(i));
      timers.back()->start();
      fn();
      timers.back()->stop();
    }
    for (auto& t : timers) us.push_back(1000.0 * t->milliseconds());
    return summarise(std::move(us), "cuda events, L2 flushed (256 MB memset) before each call");
  }
  for (int i = 0; i < o.iterations; ++i) {
    const auto start = std::chrono::steady_clock::now();
    fn();
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  return summarise(std::move(us), "steady_clock around each call (cpu)");
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
