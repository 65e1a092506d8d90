// The mean and the sum of squared deviations of a set of values, (count, mean, m2), merged with
// Chan et al.'s pairwise update: a LayerNorm row's statistics in one pass and one reduction
// (block_reduce, shuffles or a cluster's shared memory move it as one value) instead of a pass
// and a reduction for the mean, then another for the variance.
#pragma once

#include "device/reduce.cuh"

namespace tileops::dev {

struct Moments {
  float count, mean, m2;
};

__device__ __forceinline__ Moments shfl_xor(Moments v, int lane_mask) {
  return {shfl_xor(v.count, lane_mask), shfl_xor(v.mean, lane_mask), shfl_xor(v.m2, lane_mask)};
}

struct MomentsMerge {
  __device__ static Moments identity() { return {0.0f, 0.0f, 0.0f}; }
  __device__ static Moments apply(Moments a, Moments b) {
    const float count = a.count + b.count;
    if (count == 0.0f) return a;
    const float d = b.mean - a.mean, share = __fdividef(b.count, count);
    return {count, fmaf(d, share, a.mean), a.m2 + b.m2 + d * d * a.count * share};
  }
};

// The moments of VEC values: their mean first, then the squared deviations from it.
template <int VEC>
__device__ __forceinline__ Moments moments_of(const float (&v)[VEC]) {
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < VEC; ++k) s += v[k];
  const float mean = s * (1.0f / VEC);
  float m2 = 0.0f;
#pragma unroll
  for (int k = 0; k < VEC; ++k) m2 = fmaf(v[k] - mean, v[k] - mean, m2);
  return {static_cast<float>(VEC), mean, m2};
}

}  // namespace tileops::dev
