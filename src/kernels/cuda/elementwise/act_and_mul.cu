// out[r, c] = act(x[r, c]) * x[r, n + c], VEC outputs per thread per step, grid-stride; the flat
// index splits into (row, column) through a FastDivisor where it stays below 2^31.
// Prelude: T, VEC, ACT (0 silu, 1 gelu with erf, 2 gelu's tanh approximation; torch's formulas).
#include "device/fast_divisor.cuh"
#include "device/vec.cuh"

using namespace tileops::dev;

__device__ __forceinline__ float activate(float g) {
  if (ACT == 0) return g / (1.0f + expf(-g));
  if (ACT == 1) return 0.5f * g * (1.0f + erff(g * 0.70710678118654752f));
  return 0.5f * g * (1.0f + tanhf(0.79788456080286536f * (g + 0.044715f * g * g * g)));
}

// The pack of outputs at row r, column c.
__device__ __forceinline__ void act_and_mul_pack(const T* __restrict__ x, T* __restrict__ out,
                                                 i64 n, i64 r, i64 c) {
  const Pack<T, VEC> g = *reinterpret_cast<const Pack<T, VEC>*>(x + r * 2 * n + c);
  const Pack<T, VEC> u = *reinterpret_cast<const Pack<T, VEC>*>(x + r * 2 * n + n + c);
  Pack<T, VEC> o;
#pragma unroll
  for (int k = 0; k < VEC; ++k)
    o.v[k] = from_float<T>(activate(to_float(g.v[k])) * to_float(u.v[k]));
  *reinterpret_cast<Pack<T, VEC>*>(out + r * n + c) = o;
}

// packs_per_row: n / VEC as a FastDivisor (any value when m * n / VEC reaches 2^31).
extern "C" __global__ void act_and_mul_kernel(const T* __restrict__ x, T* __restrict__ out, i64 m,
                                              i64 n, FastDivisor packs_per_row) {
  const i64 per_row = n / VEC;
  const i64 total = m * per_row;
  const i64 start = blockIdx.x * (i64)blockDim.x + threadIdx.x, step = (i64)gridDim.x * blockDim.x;
  if (total <= 0x7fffffffLL) {
    for (u32 i = (u32)start; i < (u32)total; i += (u32)step) {
      u32 r, c;
      packs_per_row.divmod(i, r, c);
      act_and_mul_pack(x, out, n, r, (i64)c * VEC);
    }
    return;
  }
  for (i64 i = start; i < total; i += step) {
    const i64 r = i / per_row;
    act_and_mul_pack(x, out, n, r, (i - r * per_row) * VEC);
  }
}
