// The bench's instrument: CUPTI kernel records of a device copy on the GPU, beside CUDA events
// of the same copy, and the fallback to events (skipped without a GPU or without CUPTI); the
// CPU timer everywhere.
#include <gtest/gtest.h>

#include <algorithm>

#include "bench_timing.hpp"
#include "runtime/cuda/kernel_recorder.hpp"
#include "support/cuda_support.hpp"
#include "tileops/core/error.hpp"

namespace tileops {
namespace {

using testing::ScopedEnv;

#define TILEOPS_REQUIRE_CUPTI()                                                   \
  do {                                                                            \
    TILEOPS_REQUIRE_CUDA();                                                       \
    if (!cuda::cupti_available())                                                 \
      GTEST_SKIP() << "CUPTI not loadable: " << cuda::cupti_unavailable_reason(); \
  } while (0)

constexpr int64_t kCopyBytes = int64_t{1} << 30;  // 512 MB read, 512 MB written: about 0.2 ms

cli::TimingOptions few_iterations() {
  cli::TimingOptions o;
  o.warmup = 2;
  o.iterations = 15;
  return o;
}

TEST(BenchTiming, KernelRecordsTimeADeviceCopyAsEventsDo) {
  TILEOPS_REQUIRE_CUPTI();
  const Device gpu = Device::cuda(0);
  cli::Timing records, events;
  {
    ScopedEnv timer("TILEOPS_BENCH_TIMER", nullptr);
    records = cli::time_copy(gpu, kCopyBytes, few_iterations());
  }
  {
    ScopedEnv timer("TILEOPS_BENCH_TIMER", "events");
    events = cli::time_copy(gpu, kCopyBytes, few_iterations());
  }
  EXPECT_TRUE(records.kernel_records);
  EXPECT_NE(records.method.find("CUPTI"), std::string::npos) << records.method;
  EXPECT_GT(records.busy.median_us, 0);
  EXPECT_LE(records.busy.median_us, records.wall.median_us + 1e-3);
  EXPECT_GE(records.kernels, 1);
  EXPECT_EQ(records.median_us, records.busy.median_us);
  EXPECT_EQ(records.iterations, 15);

  EXPECT_FALSE(events.kernel_records);
  EXPECT_NE(events.method.find("cuda events (TILEOPS_BENCH_TIMER=events)"), std::string::npos)
      << events.method;
  EXPECT_EQ(events.kernels, 0);
  // A copy this long dwarfs the launch the events also hold.
  EXPECT_GT(records.busy.median_us, 0.5 * events.median_us)
      << "records " << records.busy.median_us << " us, events " << events.median_us << " us";
  EXPECT_LT(records.busy.median_us, 2.0 * events.median_us)
      << "records " << records.busy.median_us << " us, events " << events.median_us << " us";
}

TEST(BenchTiming, EachCallGetsOnlyItsOwnRecords) {
  TILEOPS_REQUIRE_CUPTI();
  const Device gpu = Device::cuda(0);
  Tensor a = Tensor::empty(Shape{int64_t{1} << 24}, DType::kUInt8, gpu);
  Tensor b = Tensor::empty(Shape{int64_t{1} << 24}, DType::kUInt8, gpu);
  cuda::fill_bytes(a, 0);
  // Three device operations per call, none of them the flush's memset.
  const cli::Timing t = cli::time_calls(
      gpu,
      [&] {
        cuda::copy(b, a);
        cuda::fill_bytes(a, 1);
        cuda::copy(a, b);
      },
      few_iterations());
  ASSERT_TRUE(t.kernel_records) << t.method;
  EXPECT_EQ(t.kernels, 3);
  EXPECT_LE(t.busy.median_us, t.wall.median_us + 1e-3);
}

TEST(BenchTiming, KernelRecorderSeesCopiesAndFills) {
  TILEOPS_REQUIRE_CUPTI();
  const Device gpu = Device::cuda(0);
  Tensor a = Tensor::empty(Shape{int64_t{1} << 20}, DType::kUInt8, gpu);
  Tensor b = Tensor::empty(Shape{int64_t{1} << 20}, DType::kUInt8, gpu);
  cuda::synchronize(0);
  std::string why_not;
  std::unique_ptr<cuda::KernelRecorder> recorder = cuda::KernelRecorder::start(why_not);
  ASSERT_NE(recorder, nullptr) << why_not;
  cuda::fill_bytes(a, 3);
  cuda::copy(b, a);
  cuda::synchronize(0);
  std::vector<cuda::DeviceActivity> records = recorder->take();
  ASSERT_EQ(records.size(), 2u);
  std::sort(records.begin(), records.end(),
            [](const auto& x, const auto& y) { return x.start_ns < y.start_ns; });
  EXPECT_EQ(records[0].kind, cuda::ActivityKind::kMemset);
  EXPECT_EQ(records[1].kind, cuda::ActivityKind::kMemcpy);
  EXPECT_LE(records[0].end_ns, records[1].start_ns);  // one stream: in order
  EXPECT_TRUE(recorder->take().empty());
}

TEST(BenchTiming, FallsBackToEventsSayingWhy) {
  TILEOPS_REQUIRE_CUPTI();
  ScopedEnv timer("TILEOPS_BENCH_TIMER", nullptr);
  std::string why_not;
  // The process's one recorder is taken, so the bench's cannot start.
  std::unique_ptr<cuda::KernelRecorder> held = cuda::KernelRecorder::start(why_not);
  ASSERT_NE(held, nullptr) << why_not;
  const cli::Timing t = cli::time_copy(Device::cuda(0), int64_t{1} << 24, few_iterations());
  EXPECT_FALSE(t.kernel_records);
  EXPECT_NE(t.method.find("cuda events (CUPTI unavailable: another kernel recorder is active"),
            std::string::npos)
      << t.method;
  EXPECT_GT(t.busy.median_us, 0);
  EXPECT_EQ(t.busy.median_us, t.wall.median_us);
}

TEST(BenchTiming, AnUnknownTimerIsAnError) {
  TILEOPS_REQUIRE_CUDA();
  ScopedEnv timer("TILEOPS_BENCH_TIMER", "stopwatch");
  EXPECT_THROW(cli::time_copy(Device::cuda(0), 1024, few_iterations()), ValueError);
}

TEST(BenchTiming, CpuCallsAreTimedWithTheSteadyClock) {
  int calls = 0;
  const cli::Timing t = cli::time_calls(
      Device::cpu(), [&] { ++calls; }, few_iterations());
  EXPECT_EQ(calls, 2 + 15);
  EXPECT_FALSE(t.kernel_records);
  EXPECT_NE(t.method.find("steady_clock"), std::string::npos);
  EXPECT_EQ(t.busy.median_us, t.wall.median_us);
  EXPECT_EQ(t.median_us, t.busy.median_us);
}

}  // namespace
}  // namespace tileops
