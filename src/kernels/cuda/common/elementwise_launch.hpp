// Grid sizes for grid-stride elementwise kernels: enough blocks to fill the device, no more.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/cuda_kernel.hpp"

namespace tileops::cuda {

inline constexpr unsigned kElementwiseBlock = 256;

inline unsigned elementwise_grid(int64_t work_items, int device) {
  const int64_t blocks = (work_items + kElementwiseBlock - 1) / kElementwiseBlock;
  return static_cast<unsigned>(std::clamp<int64_t>(blocks, 1, int64_t{sm_count(device)} * 16));
}

}  // namespace tileops::cuda
