// residual_out = x + residual (rounded to T, as the unfused pair would), output =
// rms_norm(residual_out) * weight: one block per row, the rounded sums kept in registers (up to
// CACHE packs per thread; longer rows re-read residual_out, which this block wrote before the
// barrier in block_reduce). Prelude: T, VEC, CACHE.
#include "device/reduce.cuh"
#include "device/rows.cuh"

using namespace tileops::dev;

extern "C" __global__ void TILEOPS_ROW_BOUNDS(CACHE)
    fused_add_rms_norm_kernel(const T* __restrict__ x, const T* __restrict__ residual,
                              const T* __restrict__ w, T* __restrict__ y,
                              T* __restrict__ residual_out, i64 n, float eps) {
  using P = Pack<T, VEC>;
  __shared__ float scratch[32];
  prefetch_l2(w, n * (i64)sizeof(T));
  const i64 off = blockIdx.x * n;
  const i64 packs = n / VEC;
  const P* xp = reinterpret_cast<const P*>(x + off);
  const P* rp = reinterpret_cast<const P*>(residual + off);
  P* op = reinterpret_cast<P*>(residual_out + off);
  P* yp = reinterpret_cast<P*>(y + off);
  const P* wp = reinterpret_cast<const P*>(w);
  RowCache<T, VEC, CACHE> row;
  float ss = 0.0f;
  row.fill(
      0, packs,
      [&](i64 i) {
        const P a = xp[i], r = rp[i];
        const P s = make_pack<T, VEC>([&](int k) { return to_float(a.v[k]) + to_float(r.v[k]); });
        op[i] = s;
        return s;
      },
      [&](const P& s) {
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
          const float v = to_float(s.v[k]);
          ss += v * v;
        }
      });
  for_each_index(packs * VEC, n, [&](i64 i) {
    const T s = from_float<T>(to_float(x[off + i]) + to_float(residual[off + i]));
    residual_out[off + i] = s;
    const float v = to_float(s);
    ss += v * v;
  });
  const float inv = rsqrtf(block_reduce<Sum>(ss, scratch) / (float)n + eps);
  row.revisit(
      0, packs, [&](i64 i) { return op[i]; },
      [&](i64 i, const P& s) {
        const P g = wp[i];
        yp[i] = make_pack<T, VEC>([&](int k) { return to_float(s.v[k]) * inv * to_float(g.v[k]); });
      });
  for_each_index(packs * VEC, n, [&](i64 i) {
    y[off + i] = from_float<T>(to_float(residual_out[off + i]) * inv * to_float(w[i]));
  });
}
