// LayerNorm over rows of n elements, one block per row; the row is kept in registers (up to
// CACHE packs per thread) for the mean, the centred variance and the output. Prelude: T, VEC,
// CACHE.
extern "C" __global__ void ROW_BOUNDS layer_norm_kernel(const T* __restrict__ x, const T* __restrict__ w,
                                             const T* __restrict__ b, T* __restrict__ y, i64 n,
                                             float eps) {
  __shared__ float scratch[32];
  prefetch_l2(w, n * (i64)sizeof(T));
  prefetch_l2(b, n * (i64)sizeof(T));
  typedef Pack<T, VEC> P;
  const P* xr = reinterpret_cast<const P*>(x + blockIdx.x * n);
  P* yr = reinterpret_cast<P*>(y + blockIdx.x * n);
  const T* xs = x + blockIdx.x * n;
  T* ys = y + blockIdx.x * n;
  const i64 packs = n / VEC, cached = (i64)CACHE * blockDim.x;
  P cache[CACHE > 0 ? CACHE : 1];
  float sum = 0.0f;
#pragma unroll
  for (int c = 0; c < CACHE; ++c) {
    const i64 i = threadIdx.x + (i64)c * blockDim.x;
    if (i < packs) {
      cache[c] = xr[i];
#pragma unroll
      for (int k = 0; k < VEC; ++k) sum += to_float(cache[c].v[k]);
    }
  }
  for (i64 i = cached + threadIdx.x; i < packs; i += blockDim.x) {
    const P p = xr[i];
#pragma unroll
    for (int k = 0; k < VEC; ++k) sum += to_float(p.v[k]);
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) sum += to_float(xs[i]);
  const float mean = block_sum(sum, scratch) / (float)n;
  float sq = 0.0f;
#pragma unroll
  for (int c = 0; c < CACHE; ++c) {
    const i64 i = threadIdx.x + (i64)c * blockDim.x;
    if (i < packs) {
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        const float d = to_float(cache[c].v[k]) - mean;
        sq += d * d;
      }
    }
  }
  for (i64 i = cached + threadIdx.x; i < packs; i += blockDim.x) {
    const P p = xr[i];
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      const float d = to_float(p.v[k]) - mean;
      sq += d * d;
    }
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
    const float d = to_float(xs[i]) - mean;
    sq += d * d;
  }
  const float inv = rsqrtf(block_sum(sq, scratch) / (float)n + eps);
  const P* wp = reinterpret_cast<const P*>(w);
  const P* bp = reinterpret_cast<const P*>(b);
#pragma unroll
  for (int c = 0; c < CACHE; ++c) {
    const i64 i = threadIdx.x + (i64)c * blockDim.x;
    if (i < packs) {
      const P g = wp[i], h = bp[i];
      P o;
#pragma unroll
      for (int k = 0; k < VEC; ++k) {
        o.v[k] = from_float<T>((to_float(cache[c].v[k]) - mean) * inv * to_float(g.v[k]) + to_float(h.v[k]));
      }
      yr[i] = o;
    }
  }
  for (i64 i = cached + threadIdx.x; i < packs; i += blockDim.x) {
    const P p = xr[i], g = wp[i], h = bp[i];
    P o;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      o.v[k] = from_float<T>((to_float(p.v[k]) - mean) * inv * to_float(g.v[k]) + to_float(h.v[k]));
    }
    yr[i] = o;
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
    ys[i] = from_float<T>((to_float(xs[i]) - mean) * inv * to_float(w[i]) + to_float(b[i]));
  }
}
