// Grid sizes for grid-stride elementwise kernels: enough blocks to fill the device, no more.
#pragma once

#include <algorithm>
#include <cstdint>

#include "tileops/op/device_facts.hpp"

namespace tileops::cuda {

inline constexpr unsigned kElementwiseBlock = 256;

inline unsigned elementwise_grid(int64_t work_items, int device) {
  const DeviceFacts facts = read_device_facts(Device::cuda(device));
  const int64_t blocks = (work_items + kElementwiseBlock - 1) / kElementwiseBlock;
  return static_cast<unsigned>(std::clamp<int64_t>(blocks, 1, int64_t{facts.sm_count} * 16));
}

}  // namespace tileops::cuda
