// The tail of a GEMM's store (GemmCall): act(gate) * up when gated, then + bias[c], then
// + residual[r, c], on fp32 sums before the one rounding. bias and residual are null when the call
// has none; residual may alias d (each element is read before the same thread writes it).
#pragma once

#include "device/activation.cuh"
#include "device/numeric.cuh"

namespace tileops::dev {

template <typename T>
struct GemmTailArgs {
  const T* bias;
  const T* residual;
};

// The output value of d[r, c] (row-major, N columns) from its fp32 sum(s); act < 0: not gated.
template <typename T>
__device__ __forceinline__ float gemm_tail(const GemmTailArgs<T>& tail, int act, float sum,
                                           float up, i64 r, i64 c, i64 N) {
  float v = act >= 0 ? activate(act, sum) * up : sum;
  if (tail.bias != nullptr) v += to_float(tail.bias[c]);
  if (tail.residual != nullptr) v += to_float(tail.residual[r * N + c]);
  return v;
}

}  // namespace tileops::dev
