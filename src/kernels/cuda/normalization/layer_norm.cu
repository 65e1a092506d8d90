// LayerNorm over rows of n elements: one block per row; mean, then the centred sum of squares
// (two reductions, the row re-read from L1/L2), then the output. Prelude: T, VEC.
extern "C" __global__ void layer_norm_kernel(const T* __restrict__ x, const T* __restrict__ w,
                                             const T* __restrict__ b, T* __restrict__ y, i64 n,
                                             float eps) {
  __shared__ float scratch[32];
  const T* xr = x + blockIdx.x * n;
  T* yr = y + blockIdx.x * n;
  const i64 packs = n / VEC;
  float sum = 0.0f;
  for (i64 i = threadIdx.x; i < packs; i += blockDim.x) {
    const Pack<T, VEC> p = reinterpret_cast<const Pack<T, VEC>*>(xr)[i];
#pragma unroll
    for (int k = 0; k < VEC; ++k) sum += to_float(p.v[k]);
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) sum += to_float(xr[i]);
  const float mean = block_sum(sum, scratch) / (float)n;
  float sq = 0.0f;
  for (i64 i = threadIdx.x; i < packs; i += blockDim.x) {
    const Pack<T, VEC> p = reinterpret_cast<const Pack<T, VEC>*>(xr)[i];
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      const float d = to_float(p.v[k]) - mean;
      sq += d * d;
    }
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
    const float d = to_float(xr[i]) - mean;
    sq += d * d;
  }
  const float inv = rsqrtf(block_sum(sq, scratch) / (float)n + eps);
  for (i64 i = threadIdx.x; i < packs; i += blockDim.x) {
    const Pack<T, VEC> p = reinterpret_cast<const Pack<T, VEC>*>(xr)[i];
    const Pack<T, VEC> g = reinterpret_cast<const Pack<T, VEC>*>(w)[i];
    const Pack<T, VEC> h = reinterpret_cast<const Pack<T, VEC>*>(b)[i];
    Pack<T, VEC> o;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      o.v[k] = from_float<T>((to_float(p.v[k]) - mean) * inv * to_float(g.v[k]) + to_float(h.v[k]));
    }
    reinterpret_cast<Pack<T, VEC>*>(yr)[i] = o;
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
    yr[i] = from_float<T>((to_float(xr[i]) - mean) * inv * to_float(w[i]) + to_float(b[i]));
  }
}
