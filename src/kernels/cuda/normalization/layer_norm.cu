// LayerNorm over rows of n elements, one block per row; the row is kept in registers (up to
// CACHE packs per thread) for the mean, the centred variance and the output. Prelude: T, VEC,
// CACHE.
#include "device/reduce.cuh"
#include "device/rows.cuh"

using namespace tileops::dev;

extern "C" __global__ void TILEOPS_ROW_BOUNDS(CACHE)
    layer_norm_kernel(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ b,
                      T* __restrict__ y, i64 n, float eps) {
  using P = Pack<T, VEC>;
  __shared__ float scratch[32];
  prefetch_l2(w, n * (i64)sizeof(T));
  prefetch_l2(b, n * (i64)sizeof(T));
  const T* xs = x + blockIdx.x * n;
  T* ys = y + blockIdx.x * n;
  const P* xr = reinterpret_cast<const P*>(xs);
  P* yr = reinterpret_cast<P*>(ys);
  const i64 packs = n / VEC;
  auto read = [&](i64 i) { return xr[i]; };
  RowCache<T, VEC, CACHE> row;
  float sum = 0.0f;
  row.fill(0, packs, read, [&](const P& p) {
#pragma unroll
    for (int k = 0; k < VEC; ++k) sum += to_float(p.v[k]);
  });
  for_each_index(packs * VEC, n, [&](i64 i) { sum += to_float(xs[i]); });
  const float mean = block_reduce<Sum>(sum, scratch) / (float)n;
  float sq = 0.0f;
  row.revisit(0, packs, read, [&](i64, const P& p) {
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      const float d = to_float(p.v[k]) - mean;
      sq += d * d;
    }
  });
  for_each_index(packs * VEC, n, [&](i64 i) {
    const float d = to_float(xs[i]) - mean;
    sq += d * d;
  });
  const float inv = rsqrtf(block_reduce<Sum>(sq, scratch) / (float)n + eps);
  const P* wp = reinterpret_cast<const P*>(w);
  const P* bp = reinterpret_cast<const P*>(b);
  row.revisit(0, packs, read, [&](i64 i, const P& p) {
    const P g = wp[i], h = bp[i];
    yr[i] = make_pack<T, VEC>([&](int k) {
      return (to_float(p.v[k]) - mean) * inv * to_float(g.v[k]) + to_float(h.v[k]);
    });
  });
  for_each_index(packs * VEC, n, [&](i64 i) {
    ys[i] = from_float<T>((to_float(xs[i]) - mean) * inv * to_float(w[i]) + to_float(b[i]));
  });
}
