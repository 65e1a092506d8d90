// Reading CUPTI activity buffers, on the CPU: synthetic buffers laid out as CUPTI lays out
// kernel, memcpy and memset records (a uint32 kind first, start at byte 16, end at byte 24),
// walked by a stand-in for cuptiActivityGetNextRecord.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "runtime/cuda/activity_records.hpp"

namespace tileops::cuda {
namespace {

// Test layout only: each synthetic record keeps its own length at byte 4 (real records keep
// other fields there), which is how the stand-in below finds the next one.
class SyntheticBuffer {
 public:
  void add(uint32_t kind, uint64_t start_ns, uint64_t end_ns, uint32_t bytes = 40) {
    const size_t at = bytes_.size();
    bytes_.resize(at + bytes, 0);
    put(at, kind);
    put(at + 4, bytes);
    if (bytes >= 32) {
      put(at + 16, start_ns);
      put(at + 24, end_ns);
    }
  }
  uint8_t* data() { return reinterpret_cast<uint8_t*>(bytes_.data()); }
  size_t size() const { return bytes_.size(); }

 private:
  template <typename T>
  void put(size_t at, T value) {
    std::memcpy(bytes_.data() + at, &value, sizeof value);
  }
  std::vector<unsigned char> bytes_;
};

CuptiResult next_synthetic(uint8_t* buffer, size_t valid, uint8_t** record) {
  uint8_t* next = buffer;
  if (*record != nullptr) {
    uint32_t length = 0;
    std::memcpy(&length, *record + 4, sizeof length);
    next = *record + length;
  }
  if (next >= buffer + valid) return kCuptiMaxLimitReached;
  *record = next;
  return kCuptiSuccess;
}

constexpr uint32_t kMemcpy = 1, kMemset = 2, kKernel = 10;

std::vector<DeviceActivity> parse(SyntheticBuffer& b) {
  std::vector<DeviceActivity> out;
  parse_activity_records(b.data(), b.size(), &next_synthetic, out);
  return out;
}

TEST(ActivityRecords, ReadsKernelMemcpyAndMemsetIntervals) {
  SyntheticBuffer b;
  b.add(kKernel, 1000, 3000);
  b.add(kMemcpy, 3500, 4000, 64);
  b.add(kMemset, 5000, 5250, 48);
  const std::vector<DeviceActivity> r = parse(b);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].kind, ActivityKind::kConcurrentKernel);
  EXPECT_EQ(r[0].start_ns, 1000u);
  EXPECT_EQ(r[0].end_ns, 3000u);
  EXPECT_EQ(r[1].kind, ActivityKind::kMemcpy);
  EXPECT_EQ(r[1].start_ns, 3500u);
  EXPECT_EQ(r[2].kind, ActivityKind::kMemset);
  EXPECT_EQ(r[2].end_ns, 5250u);
}

TEST(ActivityRecords, OtherKindsAreSkipped) {
  SyntheticBuffer b;
  b.add(3, 10, 20);  // CUPTI_ACTIVITY_KIND_KERNEL (serialised kernels): not enabled, not read
  b.add(kKernel, 100, 200);
  b.add(5, 0, 0, 12);  // a short record of another kind
  b.add(0x7fffffff, 300, 400);
  b.add(kMemset, 500, 600);
  const std::vector<DeviceActivity> r = parse(b);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].kind, ActivityKind::kConcurrentKernel);
  EXPECT_EQ(r[1].kind, ActivityKind::kMemset);
}

TEST(ActivityRecords, UnfinishedRecordsAreSkipped) {
  SyntheticBuffer b;
  b.add(kKernel, 0, 0);      // never started
  b.add(kKernel, 900, 0);    // started, not ended
  b.add(kKernel, 900, 800);  // end before start
  b.add(kKernel, 1000, 1000);
  const std::vector<DeviceActivity> r = parse(b);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].start_ns, 1000u);
}

TEST(ActivityRecords, EmptyOrNullBufferGivesNothing) {
  std::vector<DeviceActivity> out;
  SyntheticBuffer empty;
  parse_activity_records(empty.data(), 0, &next_synthetic, out);
  parse_activity_records(nullptr, 64, &next_synthetic, out);
  EXPECT_TRUE(out.empty());
}

TEST(ActivityRecords, ARecordCutShortAtTheEndIsNotRead) {
  SyntheticBuffer b;
  b.add(kKernel, 100, 200);
  b.add(kKernel, 300, 400);
  std::vector<DeviceActivity> out;
  parse_activity_records(b.data(), b.size() - 20, &next_synthetic, out);  // second one: 20 bytes
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].start_ns, 100u);
}

TEST(ActivityRecords, WalkStopsAtTheFirstFailure) {
  SyntheticBuffer b;
  b.add(kKernel, 100, 200);
  b.add(kKernel, 300, 400);
  std::vector<DeviceActivity> out;
  parse_activity_records(
      b.data(), b.size(),
      [](uint8_t* buffer, size_t, uint8_t** record) -> CuptiResult {
        if (*record != nullptr) return 17;  // CUPTI_ERROR_INVALID_KIND after the first
        *record = buffer;
        return kCuptiSuccess;
      },
      out);
  EXPECT_EQ(out.size(), 1u);
}

TEST(ActivitySpan, BusyIsTheSumAndWallTheWholeInterval) {
  // Two kernels with a 1 us gap, then a copy: busy 2 + 1 + 0.5 us, wall 0 to 5 us.
  const std::vector<DeviceActivity> records{{ActivityKind::kConcurrentKernel, 10000, 12000},
                                            {ActivityKind::kConcurrentKernel, 13000, 14000},
                                            {ActivityKind::kMemcpy, 14500, 15000}};
  const ActivitySpan s = span_of(records);
  EXPECT_DOUBLE_EQ(s.busy_us, 3.5);
  EXPECT_DOUBLE_EQ(s.wall_us, 5.0);
  EXPECT_EQ(s.records, 3);
}

TEST(ActivitySpan, RecordsInAnyOrder) {
  const ActivitySpan s =
      span_of({{ActivityKind::kMemset, 7000, 9000}, {ActivityKind::kConcurrentKernel, 1000, 2000}});
  EXPECT_DOUBLE_EQ(s.busy_us, 3.0);
  EXPECT_DOUBLE_EQ(s.wall_us, 8.0);
}

TEST(ActivitySpan, OverlappingRecordsCountTwiceInBusy) {
  const ActivitySpan s = span_of({{ActivityKind::kConcurrentKernel, 1000, 5000},
                                  {ActivityKind::kConcurrentKernel, 2000, 6000}});
  EXPECT_DOUBLE_EQ(s.busy_us, 8.0);
  EXPECT_DOUBLE_EQ(s.wall_us, 5.0);
}

TEST(ActivitySpan, NoRecordsIsZero) {
  const ActivitySpan s = span_of({});
  EXPECT_EQ(s.busy_us, 0);
  EXPECT_EQ(s.wall_us, 0);
  EXPECT_EQ(s.records, 0);
}

TEST(ActivityRecords, ParsedBufferGivesTheSpan) {
  SyntheticBuffer b;
  b.add(kMemset, 100000, 200000);  // 100 us
  b.add(77, 1, 999999999);         // unknown: must not stretch the wall
  b.add(kKernel, 250000, 260000);  // 10 us
  const ActivitySpan s = span_of(parse(b));
  EXPECT_DOUBLE_EQ(s.busy_us, 110.0);
  EXPECT_DOUBLE_EQ(s.wall_us, 160.0);
  EXPECT_EQ(s.records, 2);
}

}  // namespace
}  // namespace tileops::cuda
