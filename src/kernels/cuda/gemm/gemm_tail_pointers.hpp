// The device pointers of a GEMM call's tail (null where the call has none).
#pragma once

#include <cstdint>

#include "tileops/ops/gemm/gemm_kernel.hpp"

namespace tileops::cuda {

struct TailPointers {
  const void* bias = nullptr;
  const void* residual = nullptr;
};

inline TailPointers tail_pointers(const GemmCall& call, const GemmTail& tail) {
  return {call.bias ? tail.bias.data() : nullptr, call.residual ? tail.residual.data() : nullptr};
}

// Whether every one of pointers (null ones ignored) is a multiple of `bytes`.
inline bool all_aligned(std::initializer_list<const void*> pointers, uintptr_t bytes) {
  for (const void* p : pointers) {
    if (p != nullptr && reinterpret_cast<uintptr_t>(p) % bytes != 0) return false;
  }
  return true;
}

}  // namespace tileops::cuda
