// RMSNorm over rows of n elements: one block per row, two passes over the row (the second read
// hits L1/L2). Prelude: T (element type), VEC (elements per access).
extern "C" __global__ void rms_norm_kernel(const T* __restrict__ x, const T* __restrict__ w,
                                           T* __restrict__ y, i64 n, float eps) {
  __shared__ float scratch[32];
  const T* xr = x + blockIdx.x * n;
  T* yr = y + blockIdx.x * n;
  const i64 packs = n / VEC;
  float ss = 0.0f;
  for (i64 i = threadIdx.x; i < packs; i += blockDim.x) {
    const Pack<T, VEC> p = reinterpret_cast<const Pack<T, VEC>*>(xr)[i];
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      const float v = to_float(p.v[k]);
      ss += v * v;
    }
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
    const float v = to_float(xr[i]);
    ss += v * v;
  }
  ss = block_sum(ss, scratch);
  const float inv = rsqrtf(ss / (float)n + eps);
  for (i64 i = threadIdx.x; i < packs; i += blockDim.x) {
    const Pack<T, VEC> p = reinterpret_cast<const Pack<T, VEC>*>(xr)[i];
    const Pack<T, VEC> g = reinterpret_cast<const Pack<T, VEC>*>(w)[i];
    Pack<T, VEC> o;
#pragma unroll
    for (int k = 0; k < VEC; ++k) o.v[k] = from_float<T>(to_float(p.v[k]) * inv * to_float(g.v[k]));
    reinterpret_cast<Pack<T, VEC>*>(yr)[i] = o;
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
    yr[i] = from_float<T>(to_float(xr[i]) * inv * to_float(w[i]));
  }
}
