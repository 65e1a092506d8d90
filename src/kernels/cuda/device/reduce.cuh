// Warp and block reductions, templated on the operation: Sum, Max, or any type with
// `static V apply(V, V)` and `static V identity()` for a value type V that shfl_xor moves (float,
// float2 such as a softmax's running (max, sum) pair, double, double2).
#pragma once

#include "device/numeric.cuh"

namespace tileops::dev {

struct Sum {
  __device__ static float identity() { return 0.0f; }
  __device__ static float apply(float a, float b) { return a + b; }
};
struct Max {
  __device__ static float identity() { return __int_as_float(0xff800000); }
  __device__ static float apply(float a, float b) { return fmaxf(a, b); }
};

__device__ __forceinline__ float shfl_xor(float v, int lane_mask) {
  return __shfl_xor_sync(0xffffffffu, v, lane_mask);
}
__device__ __forceinline__ float2 shfl_xor(float2 v, int lane_mask) {
  return make_float2(shfl_xor(v.x, lane_mask), shfl_xor(v.y, lane_mask));
}
__device__ __forceinline__ double shfl_xor(double v, int lane_mask) {
  return __shfl_xor_sync(0xffffffffu, v, lane_mask);
}
__device__ __forceinline__ double2 shfl_xor(double2 v, int lane_mask) {
  return make_double2(shfl_xor(v.x, lane_mask), shfl_xor(v.y, lane_mask));
}

template <typename Op, typename V>
__device__ __forceinline__ V warp_reduce(V v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = Op::apply(v, shfl_xor(v, o));
  return v;
}

// Over the whole block; every thread gets the result. scratch holds 32 values.
template <typename Op, typename V>
__device__ __forceinline__ V block_reduce(V v, V* scratch) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warp_reduce<Op>(v);
  __syncthreads();
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  const int warps = (blockDim.x + 31) >> 5;
  v = lane < warps ? scratch[lane] : Op::identity();
  return warp_reduce<Op>(v);
}

}  // namespace tileops::dev
