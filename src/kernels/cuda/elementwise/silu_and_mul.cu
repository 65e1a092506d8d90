// out[r, c] = silu(x[r, c]) * x[r, n + c], VEC outputs per thread per step, grid-stride.
// Prelude: T, VEC.
__device__ __forceinline__ float silu(float g) { return g / (1.0f + expf(-g)); }

extern "C" __global__ void silu_and_mul_kernel(const T* __restrict__ x, T* __restrict__ out, i64 m,
                                               i64 n) {
  const i64 packs_per_row = n / VEC;
  const i64 total = m * packs_per_row;
  for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < total; i += (i64)gridDim.x * blockDim.x) {
    const i64 r = i / packs_per_row, c = (i - r * packs_per_row) * VEC;
    const Pack<T, VEC> g = *reinterpret_cast<const Pack<T, VEC>*>(x + r * 2 * n + c);
    const Pack<T, VEC> u = *reinterpret_cast<const Pack<T, VEC>*>(x + r * 2 * n + n + c);
    Pack<T, VEC> o;
#pragma unroll
    for (int k = 0; k < VEC; ++k) o.v[k] = from_float<T>(silu(to_float(g.v[k])) * to_float(u.v[k]));
    *reinterpret_cast<Pack<T, VEC>*>(out + r * n + c) = o;
  }
}
