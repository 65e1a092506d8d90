// What a CUPTI activity buffer says about device work: the kind, start and end of each kernel,
// memcpy and memset record, and what one call's records add up to. Pure functions over bytes, so
// they are tested on the CPU with synthetic buffers; kernel_recorder.hpp feeds them CUPTI's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "internal_api.hpp"
#include "runtime/cuda/cupti_api.hpp"

namespace tileops::cuda {

struct DeviceActivity {
  ActivityKind kind = ActivityKind::kConcurrentKernel;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
};

// Appends buffer's kernel, memcpy and memset records to out, walking it with next (CUPTI's
// cuptiActivityGetNextRecord) until next reports anything but success. Records of other kinds,
// and records without a complete interval, are skipped.
TILEOPS_INTERNAL_API void parse_activity_records(uint8_t* buffer, size_t valid_bytes,
                                                 CuptiNextRecord next,
                                                 std::vector<DeviceActivity>& out);

// One call's device work.
struct ActivitySpan {
  double busy_us = 0;  // the sum of the records' durations (overlapping records count twice)
  double wall_us = 0;  // the first record's start to the last record's end
  int records = 0;
};

TILEOPS_INTERNAL_API ActivitySpan span_of(const std::vector<DeviceActivity>& records);

}  // namespace tileops::cuda
