// Grid-stride elementwise kernels: enough blocks to fill the device, no more; and the pair of
// variants (16-byte packs or single elements) most of them are compiled as.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>

#include "kernels/cuda/common/row_launch.hpp"
#include "kernels/cuda/cuda_kernel.hpp"

namespace tileops::cuda {

inline constexpr unsigned kElementwiseBlock = 256;

inline unsigned elementwise_grid(int64_t work_items, int device) {
  const int64_t blocks = (work_items + kElementwiseBlock - 1) / kElementwiseBlock;
  return static_cast<unsigned>(std::clamp<int64_t>(blocks, 1, int64_t{sm_count(device)} * 16));
}

// Launches fn over work_items items (elements or packs), kElementwiseBlock threads a block.
inline void launch_elementwise(CUfunction fn, int device, int64_t work_items,
                               std::initializer_list<void*> args) {
  launch(fn, device, elementwise_grid(work_items, device), 1, kElementwiseBlock, 0, args);
}
inline void launch_elementwise(CUfunction fn, int device, int64_t work_items,
                               std::span<void* const> args) {
  launch(fn, device, elementwise_grid(work_items, device), 1, kElementwiseBlock, 0, args);
}

// One entry point compiled for a dtype's 16-byte packs (VEC = wide_vector_width) and for single
// elements (VEC = 1); spec(vec) gives the variant's KernelSpec.
class WideAndNarrow {
 public:
  WideAndNarrow(DType dtype, const std::function<KernelSpec(int vec)>& spec)
      : wide_vec_(wide_vector_width(dtype)), wide_(spec(wide_vec_)), narrow_(spec(1)) {}
  int wide_vec() const { return wide_vec_; }
  // The variant for access width vec (wide_vec() or 1), loaded for device.
  CUfunction get(int vec, int device) { return (vec == wide_vec_ ? wide_ : narrow_).get(device); }

 private:
  int wide_vec_;
  CudaFunction wide_, narrow_;
};

}  // namespace tileops::cuda
