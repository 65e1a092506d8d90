// The epilogue of the swapped-operand GEMM (SWAP_AB in gemm_sm90_ws.cu). The kernel multiplies
// the weight (as wgmma's A, M = output columns) by the activations (as B, N = tokens), so a
// consumer's accumulator (r, c) is output d[token c, column r]. Each value goes through the tail
// to d[c * out_cols + r]; the output of a decode step is a few KiB, so plain 2-byte stores serve.
//
// Gated: the tile's first consumer holds the gate sums of 64 columns and the second the up sums
// of the same columns. The second hands its sums over in shared memory (thread t's accumulator i
// at exchange[i * 128 + t], the same fragment position in both warpgroups), and the first stores
// act(gate) * up.
#pragma once

#include "device/numeric.cuh"
#include "device/sm90/warpgroup.cuh"
#include "device/sm90/wgmma.cuh"
#include "gemm/gemm_tail.cuh"

namespace tileops::dev::sm90 {

// This thread's accumulators of the consumer tile at (row0, col0): out_cols output columns (the
// kernel's M), tokens rows of d (the kernel's N). up: the gate's partner sums in the exchange
// layout, or null when not gated.
template <typename T, int ACC>
__device__ __forceinline__ void store_swapped(const float (&acc)[ACC], const float* up, int act,
                                              T* d, const GemmTailArgs<T>& tail, int out_cols,
                                              int tokens, int row0, int col0) {
  const int t = warpgroup_thread();
#pragma unroll
  for (int i = 0; i < ACC; ++i) {
    const int r = row0 + acc_row(t, i), c = col0 + acc_col(t, i);
    if (r < out_cols && c < tokens) {
      const float u = up != nullptr ? up[i * kWarpgroupThreads + t] : 0.0f;
      d[static_cast<i64>(c) * out_cols + r] =
          from_float<T>(gemm_tail(tail, up != nullptr ? act : -1, acc[i], u, c, r, out_cols));
    }
  }
}

// The up consumer's half of the gated hand-over: its sums into the exchange buffer.
template <int ACC>
__device__ __forceinline__ void hand_over_up(const float (&acc)[ACC], float* exchange) {
  const int t = warpgroup_thread();
#pragma unroll
  for (int i = 0; i < ACC; ++i) exchange[i * kWarpgroupThreads + t] = acc[i];
}

}  // namespace tileops::dev::sm90
