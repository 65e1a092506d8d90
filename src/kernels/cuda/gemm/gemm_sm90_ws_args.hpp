// The arguments of gemm_sm90_ws_kernel (gemm_sm90_ws.cu) in its parameter order, so that its two
// launchers, the tile kernel's (gemm_sm90_ws_cuda.cpp) and the swapped-operand one's
// (gemm_swap_cuda.cpp), fill the same fields and the kernel's signature is spelt out once here.
#pragma once

#include <array>

#include "runtime/cuda/driver_api.hpp"

namespace tileops::cuda {

struct WsKernelArgs {
  TensorMapBits map_a{}, map_b{};
  TensorMapBits map_d{};  // read only with tma_store
  void* d = nullptr;
  int m = 0, n = 0, k = 0;
  int vec_stores = 0, tma_store = 0;
  int splits = 1;
  float* partials = nullptr;  // split-K's workspace (SplitKBuffers); null within a cluster
  int* counters = nullptr;
  const void* bias = nullptr;
  const void* residual = nullptr;
  int batch = 1;
  int stream_weight = 0;
  TensorMapBits map_a_tail{};  // read only with a_tail_rows > 0
  int a_tail_rows = 0;
  TensorMapBits map_b_tail{};  // read only with b_tail_rows > 0
  int b_tail_rows = 0;
  int parallel_reduce = 0;  // only on a cooperative launch

  // Each argument's address in parameter order, as cuLaunchKernelEx takes them.
  std::array<void*, 21> pointers() {
    return {&map_a,
            &map_b,
            &map_d,
            &d,
            &m,
            &n,
            &k,
            &vec_stores,
            &tma_store,
            &splits,
            &partials,
            &counters,
            &bias,
            &residual,
            &batch,
            &stream_weight,
            &map_a_tail,
            &a_tail_rows,
            &map_b_tail,
            &b_tail_rows,
            &parallel_reduce};
  }
};

}  // namespace tileops::cuda
