// Warp and block reductions, templated on the operation (Sum, Max or any type with
// `static float apply(float, float)` and `static float identity()`).
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

template <typename Op>
__device__ __forceinline__ float warp_reduce(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = Op::apply(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// Over the whole block; every thread gets the result. scratch holds 32 floats.
template <typename Op>
__device__ __forceinline__ float block_reduce(float v, float* scratch) {
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
