// out[r, c] = act(x[r, c]) * x[r, n + c], VEC outputs per thread per step, grid-stride.
// Prelude: T, VEC, ACT (0 silu, 1 gelu with erf, 2 gelu's tanh approximation; torch's formulas).
#include "device/vec.cuh"

using namespace tileops::dev;

__device__ __forceinline__ float activate(float g) {
  if (ACT == 0) return g / (1.0f + expf(-g));
  if (ACT == 1) return 0.5f * g * (1.0f + erff(g * 0.70710678118654752f));
  return 0.5f * g * (1.0f + tanhf(0.79788456080286536f * (g + 0.044715f * g * g * g)));
}

extern "C" __global__ void act_and_mul_kernel(const T* __restrict__ x, T* __restrict__ out, i64 m,
                                              i64 n) {
  const i64 packs_per_row = n / VEC;
  const i64 total = m * packs_per_row;
  for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < total;
       i += (i64)gridDim.x * blockDim.x) {
    const i64 r = i / packs_per_row, c = (i - r * packs_per_row) * VEC;
    const Pack<T, VEC> g = *reinterpret_cast<const Pack<T, VEC>*>(x + r * 2 * n + c);
    const Pack<T, VEC> u = *reinterpret_cast<const Pack<T, VEC>*>(x + r * 2 * n + n + c);
    Pack<T, VEC> o;
#pragma unroll
    for (int k = 0; k < VEC; ++k)
      o.v[k] = from_float<T>(activate(to_float(g.v[k])) * to_float(u.v[k]));
    *reinterpret_cast<Pack<T, VEC>*>(out + r * n + c) = o;
  }
}
