// Choices shared by the row-wise kernels (norms, softmax): the access width and block size.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/cuda_kernel.hpp"

namespace tileops::cuda {

// Elements per 16-byte access when every pointer is 16-byte aligned and rows keep that alignment.
inline int row_vector_width(DType dtype, int64_t n, std::initializer_list<const void*> pointers) {
  const int vec = static_cast<int>(16 / dtype_size(dtype));
  if (n % vec != 0) return 1;
  for (const void* p : pointers) {
    if (p != nullptr && !aligned16(p)) return 1;
  }
  return vec;
}

// Enough threads for one access each, rounded to warps, between 32 and 1024.
inline unsigned row_block_size(int64_t n, int vec) {
  const int64_t packs = (n + vec - 1) / vec;
  return static_cast<unsigned>(std::clamp<int64_t>((packs + 31) / 32 * 32, 32, 1024));
}

}  // namespace tileops::cuda
