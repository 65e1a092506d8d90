// Records the device's kernels, memcpys and memsets through CUPTI's activity API while alive.
// CUPTI's buffer callbacks are process-wide, so there is one recorder at a time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "internal_api.hpp"
#include "runtime/cuda/activity_records.hpp"

namespace tileops::cuda {

class TILEOPS_INTERNAL_API KernelRecorder {
 public:
  // A recorder, or null with why_not saying why (CUPTI missing, refusing the activity kinds, or
  // another recorder alive). Never throws.
  static std::unique_ptr<KernelRecorder> start(std::string& why_not) noexcept;
  // Stops recording; records not taken are dropped.
  ~KernelRecorder();
  KernelRecorder(const KernelRecorder&) = delete;
  KernelRecorder& operator=(const KernelRecorder&) = delete;

  // The records CUPTI holds, forced out, and those it delivered since the last take. CUPTI
  // fills a record in when its activity ends, so synchronise with the device first. Throws
  // RuntimeError when CUPTI fails to flush.
  std::vector<DeviceActivity> take();

 private:
  KernelRecorder() = default;
};

}  // namespace tileops::cuda
