// The running state of a softmax row, (m, s) = (max so far, sum of exp(v - m)), kept as a float2
// so the block and cluster reductions move it as one value; and the output of a finished row.
#pragma once

#include "device/reduce.cuh"

namespace tileops::dev {

__device__ __forceinline__ void online_update(float2& ms, float v) {
  if (v > ms.x) {
    ms.y = ms.y * __expf(ms.x - v) + 1.0f;
    ms.x = v;
  } else {
    ms.y += __expf(v - ms.x);
  }
}

// Merges two partial states (for block_reduce, and across blocks).
struct OnlineMerge {
  __device__ static float2 identity() { return make_float2(Max::identity(), 0.0f); }
  __device__ static float2 apply(float2 a, float2 b) {
    const float m = fmaxf(a.x, b.x);
    if (m == Max::identity()) return a;
    return make_float2(m, a.y * __expf(a.x - m) + b.y * __expf(b.x - m));
  }
};

// y = exp(v - m) / s, or v - m - log(s) for log-softmax, from a row's final state.
template <bool LOG_SOFTMAX>
struct SoftmaxOut {
  float m, log_s, inv_s;
  __device__ explicit SoftmaxOut(float2 ms) : m(ms.x), log_s(logf(ms.y)), inv_s(1.0f / ms.y) {}
  __device__ float operator()(float v) const {
    const float d = v - m;
    return LOG_SOFTMAX ? d - log_s : expf(d) * inv_s;
  }
};

}  // namespace tileops::dev
