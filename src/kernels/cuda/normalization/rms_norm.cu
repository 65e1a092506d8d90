// RMSNorm over rows of n elements, one block per row. Each thread keeps up to CACHE packs of its
// row in registers, so the row is read from memory once; packs beyond CACHE * blockDim (very long
// rows) are re-read. Prelude: T, VEC, CACHE.
#include "device/reduce.cuh"
#include "device/rows.cuh"

using namespace tileops::dev;

extern "C" __global__ void TILEOPS_ROW_BOUNDS(CACHE)
    rms_norm_kernel(const T* __restrict__ x, const T* __restrict__ w, T* __restrict__ y, i64 n,
                    float eps) {
  using P = Pack<T, VEC>;
  __shared__ float scratch[32];
  prefetch_l2(w, n * (i64)sizeof(T));
  const T* xs = x + blockIdx.x * n;
  T* ys = y + blockIdx.x * n;
  const P* xr = reinterpret_cast<const P*>(xs);
  P* yr = reinterpret_cast<P*>(ys);
  const P* wp = reinterpret_cast<const P*>(w);
  const i64 packs = n / VEC;
  auto read = [&](i64 i) { return xr[i]; };
  RowCache<T, VEC, CACHE> row;
  float ss = 0.0f;
  row.fill(0, packs, read, [&](const P& p) {
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      const float v = to_float(p.v[k]);
      ss += v * v;
    }
  });
  for_each_index(packs * VEC, n, [&](i64 i) {
    const float v = to_float(xs[i]);
    ss += v * v;
  });
  const float inv = rsqrtf(block_reduce<Sum>(ss, scratch) / (float)n + eps);
  row.revisit(0, packs, read, [&](i64 i, const P& p) {
    const P g = wp[i];
    yr[i] = make_pack<T, VEC>([&](int k) { return to_float(p.v[k]) * inv * to_float(g.v[k]); });
  });
  for_each_index(packs * VEC, n,
                 [&](i64 i) { ys[i] = from_float<T>(to_float(xs[i]) * inv * to_float(w[i])); });
}
