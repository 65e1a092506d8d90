// RMSNorm over rows of n elements, one block per row. Each thread keeps up to CACHE packs of its
// row in registers, so the row is read from memory once; packs beyond CACHE * blockDim (very long
// rows) are re-read. Prelude: T, VEC, CACHE.
extern "C" __global__ void ROW_BOUNDS rms_norm_kernel(const T* __restrict__ x, const T* __restrict__ w,
                                           T* __restrict__ y, i64 n, float eps) {
  __shared__ float scratch[32];
  prefetch_l2(w, n * (i64)sizeof(T));
  const Pack<T, VEC>* xr = reinterpret_cast<const Pack<T, VEC>*>(x + blockIdx.x * n);
  Pack<T, VEC>* yr = reinterpret_cast<Pack<T, VEC>*>(y + blockIdx.x * n);
  const Pack<T, VEC>* wp = reinterpret_cast<const Pack<T, VEC>*>(w);
  const i64 packs = n / VEC;
  const i64 cached = (i64)CACHE * blockDim.x;
  Pack<T, VEC> cache[CACHE > 0 ? CACHE : 1];
  float ss = 0.0f;
#pragma unroll
  for (int c = 0; c < CACHE; ++c) {
    const i64 i = threadIdx.x + (i64)c * blockDim.x;
    if (i < packs) {
      cache[c] = xr[i];
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        const float v = to_float(cache[c].v[k]);
        ss += v * v;
      }
    }
  }
  for (i64 i = cached + threadIdx.x; i < packs; i += blockDim.x) {
    const Pack<T, VEC> p = xr[i];
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      const float v = to_float(p.v[k]);
      ss += v * v;
    }
  }
  const T* xs = x + blockIdx.x * n;
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
    const float v = to_float(xs[i]);
    ss += v * v;
  }
  const float inv = rsqrtf(block_sum(ss, scratch) / (float)n + eps);
#pragma unroll
  for (int c = 0; c < CACHE; ++c) {
    const i64 i = threadIdx.x + (i64)c * blockDim.x;
    if (i < packs) {
      const Pack<T, VEC> g = wp[i];
      Pack<T, VEC> o;
#pragma unroll
      for (int k = 0; k < VEC; ++k) o.v[k] = from_float<T>(to_float(cache[c].v[k]) * inv * to_float(g.v[k]));
      yr[i] = o;
    }
  }
  for (i64 i = cached + threadIdx.x; i < packs; i += blockDim.x) {
    const Pack<T, VEC> p = xr[i];
    const Pack<T, VEC> g = wp[i];
    Pack<T, VEC> o;
#pragma unroll
    for (int k = 0; k < VEC; ++k) o.v[k] = from_float<T>(to_float(p.v[k]) * inv * to_float(g.v[k]));
    yr[i] = o;
  }
  T* ys = y + blockIdx.x * n;
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
    ys[i] = from_float<T>(to_float(xs[i]) * inv * to_float(w[i]));
  }
}
