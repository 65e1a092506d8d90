// The caller-owned workspace of the tile kernel's split-K (gemm_sm90_ws.cu without
// SPLIT_IN_CLUSTER; the swapped-operand form splits within a cluster and needs none): a counter
// per tile and consumer, then every split's fp32 partial of each consumer's 64 rows, and how a
// launch carves and readies it.
#pragma once

#include <cstdint>
#include <string_view>

#include <fmt/format.h>

#include "kernels/cuda/cuda_kernel.hpp"
#include "runtime/cuda/driver_api.hpp"
#include "tileops/core/error.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cuda {

struct SplitKLayout {
  int64_t counter_bytes = 0, partial_bytes = 0;
  int64_t total() const { return counter_bytes + partial_bytes; }
};

// slots: tiles x consumers; columns: a consumer's partial is 64 x columns floats. Nothing
// without a split.
inline SplitKLayout split_k_layout_of(int64_t slots, int splits, int64_t columns) {
  if (splits <= 1) return {};
  return {(slots * 4 + 255) / 256 * 256, slots * splits * 64 * columns * 4};
}

struct SplitKBuffers {
  int* counters = nullptr;
  float* partials = nullptr;
};

// The counters and partials inside workspace wp (null without a split), the counters zeroed on
// the device's current stream. A split call without its workspace is a ContractError naming the
// kernel.
inline SplitKBuffers split_k_buffers(std::string_view kernel, const SplitKLayout& layout, void* wp,
                                     int device) {
  if (layout.total() == 0) return {};
  if (wp == nullptr) {
    throw ContractError(
        fmt::format("{}: split-K needs the workspace that workspace_bytes asked for", kernel));
  }
  check(driver().cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(wp), 0,
                                 static_cast<size_t>(layout.counter_bytes),
                                 static_cast<CUstream>(current_stream(device))),
        "cuMemsetD8Async");
  return {static_cast<int*>(wp),
          reinterpret_cast<float*>(static_cast<char*>(wp) + layout.counter_bytes)};
}

}  // namespace tileops::cuda
