// The scratch an op allocates for its kernel: workspace_bytes(call) bytes through the tensor
// allocator (torch's caching allocator in the binding), on the stream the kernel runs on, so
// nothing allocates inside run and CUDA graphs capture the allocation with the call.
#pragma once

#include <cstdint>

#include "tileops/core/tensor.hpp"

namespace tileops {

// An undefined tensor when bytes is 0.
inline Tensor allocate_workspace(int64_t bytes, Device device) {
  return bytes > 0 ? Tensor::empty(Shape{bytes}, DType::kUInt8, device) : Tensor();
}

}  // namespace tileops
