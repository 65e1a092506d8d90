// residual_out = x + residual (rounded to T, as the unfused pair would), output =
// rms_norm(residual_out) * weight: one block per row. The second pass re-reads residual_out,
// which this block just wrote (L1/L2). Prelude: T, VEC.
extern "C" __global__ void fused_add_rms_norm_kernel(const T* __restrict__ x,
                                                     const T* __restrict__ residual,
                                                     const T* __restrict__ w, T* __restrict__ y,
                                                     T* __restrict__ residual_out, i64 n, float eps) {
  __shared__ float scratch[32];
  const i64 off = blockIdx.x * n;
  const i64 packs = n / VEC;
  float ss = 0.0f;
  for (i64 i = threadIdx.x; i < packs; i += blockDim.x) {
    const Pack<T, VEC> a = reinterpret_cast<const Pack<T, VEC>*>(x + off)[i];
    const Pack<T, VEC> r = reinterpret_cast<const Pack<T, VEC>*>(residual + off)[i];
    Pack<T, VEC> s;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      s.v[k] = from_float<T>(to_float(a.v[k]) + to_float(r.v[k]));
      const float v = to_float(s.v[k]);
      ss += v * v;
    }
    reinterpret_cast<Pack<T, VEC>*>(residual_out + off)[i] = s;
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
    const T s = from_float<T>(to_float(x[off + i]) + to_float(residual[off + i]));
    residual_out[off + i] = s;
    const float v = to_float(s);
    ss += v * v;
  }
  const float inv = rsqrtf(block_sum(ss, scratch) / (float)n + eps);
  // block_sum's barriers order this block's residual_out writes before the re-reads below.
  for (i64 i = threadIdx.x; i < packs; i += blockDim.x) {
    const Pack<T, VEC> s = reinterpret_cast<const Pack<T, VEC>*>(residual_out + off)[i];
    const Pack<T, VEC> g = reinterpret_cast<const Pack<T, VEC>*>(w)[i];
    Pack<T, VEC> o;
#pragma unroll
    for (int k = 0; k < VEC; ++k) o.v[k] = from_float<T>(to_float(s.v[k]) * inv * to_float(g.v[k]));
    reinterpret_cast<Pack<T, VEC>*>(y + off)[i] = o;
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
    y[off + i] = from_float<T>(to_float(residual_out[off + i]) * inv * to_float(w[i]));
  }
}
