// residual_out = x + residual (rounded to T, as the unfused pair would), output =
// rms_norm(residual_out) * weight: one block per row, the rounded sums kept in registers (up to
// CACHE packs per thread; longer rows re-read residual_out, which this block wrote before the
// barrier in block_sum). Prelude: T, VEC, CACHE.
extern "C" __global__ void ROW_BOUNDS fused_add_rms_norm_kernel(const T* __restrict__ x,
                                                     const T* __restrict__ residual,
                                                     const T* __restrict__ w, T* __restrict__ y,
                                                     T* __restrict__ residual_out, i64 n, float eps) {
  __shared__ float scratch[32];
  prefetch_l2(w, n * (i64)sizeof(T));
  typedef Pack<T, VEC> P;
  const i64 off = blockIdx.x * n;
  const i64 packs = n / VEC, cached = (i64)CACHE * blockDim.x;
  const P* xp = reinterpret_cast<const P*>(x + off);
  const P* rp = reinterpret_cast<const P*>(residual + off);
  P* op = reinterpret_cast<P*>(residual_out + off);
  P* yp = reinterpret_cast<P*>(y + off);
  const P* wp = reinterpret_cast<const P*>(w);
  P cache[CACHE > 0 ? CACHE : 1];
  float ss = 0.0f;
#pragma unroll
  for (int c = 0; c < CACHE; ++c) {
    const i64 i = threadIdx.x + (i64)c * blockDim.x;
    if (i < packs) {
      const P a = xp[i], r = rp[i];
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        cache[c].v[k] = from_float<T>(to_float(a.v[k]) + to_float(r.v[k]));
        const float v = to_float(cache[c].v[k]);
        ss += v * v;
      }
      op[i] = cache[c];
    }
  }
  for (i64 i = cached + threadIdx.x; i < packs; i += blockDim.x) {
    const P a = xp[i], r = rp[i];
    P s;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      s.v[k] = from_float<T>(to_float(a.v[k]) + to_float(r.v[k]));
      const float v = to_float(s.v[k]);
      ss += v * v;
    }
    op[i] = s;
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
    const T s = from_float<T>(to_float(x[off + i]) + to_float(residual[off + i]));
    residual_out[off + i] = s;
    const float v = to_float(s);
    ss += v * v;
  }
  const float inv = rsqrtf(block_sum(ss, scratch) / (float)n + eps);
#pragma unroll
  for (int c = 0; c < CACHE; ++c) {
    const i64 i = threadIdx.x + (i64)c * blockDim.x;
    if (i < packs) {
      const P g = wp[i];
      P o;
#pragma unroll
      for (int k = 0; k < VEC; ++k) o.v[k] = from_float<T>(to_float(cache[c].v[k]) * inv * to_float(g.v[k]));
      yp[i] = o;
    }
  }
  for (i64 i = cached + threadIdx.x; i < packs; i += blockDim.x) {
    const P s = op[i], g = wp[i];
    P o;
#pragma unroll
    for (int k = 0; k < VEC; ++k) o.v[k] = from_float<T>(to_float(s.v[k]) * inv * to_float(g.v[k]));
    yp[i] = o;
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
    y[off + i] = from_float<T>(to_float(residual_out[off + i]) * inv * to_float(w[i]));
  }
}
