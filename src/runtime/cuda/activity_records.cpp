#include "runtime/cuda/activity_records.hpp"

#include <algorithm>
#include <cstring>

namespace tileops::cuda {
namespace {

// Where every record kind read here keeps its interval (CUpti_ActivityKernel4 to 10,
// CUpti_ActivityMemcpy6, CUpti_ActivityMemset4): a uint32 kind first, then these.
constexpr size_t kStartOffset = 16;
constexpr size_t kEndOffset = 24;
constexpr size_t kMinimumRecordBytes = kEndOffset + sizeof(uint64_t);

bool is_read(uint32_t kind) {
  switch (static_cast<ActivityKind>(kind)) {
    case ActivityKind::kMemcpy:
    case ActivityKind::kMemset:
    case ActivityKind::kConcurrentKernel:
      return true;
  }
  return false;
}

template <typename T>
T field(const uint8_t* record, size_t offset) {
  T value;
  std::memcpy(&value, record + offset, sizeof value);  // records are packed: no struct casts
  return value;
}

}  // namespace

void parse_activity_records(uint8_t* buffer, size_t valid_bytes, CuptiNextRecord next,
                            std::vector<DeviceActivity>& out) {
  if (buffer == nullptr || valid_bytes == 0) return;
  // Bytes from record to the end of the valid part (0 for a pointer outside it).
  auto room = [&](const uint8_t* record) -> size_t {
    return record >= buffer && record < buffer + valid_bytes
               ? static_cast<size_t>(buffer + valid_bytes - record)
               : 0;
  };
  uint8_t* record = nullptr;
  while (next(buffer, valid_bytes, &record) == kCuptiSuccess && room(record) >= sizeof(uint32_t)) {
    const uint32_t kind = field<uint32_t>(record, 0);
    if (!is_read(kind)) continue;
    if (room(record) < kMinimumRecordBytes) break;
    const DeviceActivity a{static_cast<ActivityKind>(kind), field<uint64_t>(record, kStartOffset),
                           field<uint64_t>(record, kEndOffset)};
    // A forced flush may deliver a record whose activity had not finished.
    if (a.start_ns == 0 || a.end_ns < a.start_ns) continue;
    out.push_back(a);
  }
}

ActivitySpan span_of(const std::vector<DeviceActivity>& records) {
  ActivitySpan span;
  if (records.empty()) return span;
  uint64_t busy_ns = 0;
  uint64_t first = records.front().start_ns, last = records.front().end_ns;
  for (const DeviceActivity& a : records) {
    busy_ns += a.end_ns - a.start_ns;
    first = std::min(first, a.start_ns);
    last = std::max(last, a.end_ns);
  }
  span.busy_us = static_cast<double>(busy_ns) * 1e-3;
  span.wall_us = static_cast<double>(last - first) * 1e-3;
  span.records = static_cast<int>(records.size());
  return span;
}

}  // namespace tileops::cuda
