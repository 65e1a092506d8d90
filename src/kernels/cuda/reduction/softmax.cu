// softmax / log_softmax over the middle dim of x viewed as [outer, n, inner].
// softmax_rows_kernel (inner == 1): one block per row, online max+sum in one pass, then the
// output pass. softmax_strided_kernel (inner > 1): one thread per (outer, inner) column.
// Prelude: T, VEC, LOG (log_softmax when true).
__device__ __forceinline__ void online_update(float& m, float& s, float v) {
  if (v > m) {
    s = s * __expf(m - v) + 1.0f;
    m = v;
  } else {
    s += __expf(v - m);
  }
}

__device__ __forceinline__ void online_merge(float& m, float& s, float m2, float s2) {
  const float mm = fmaxf(m, m2);
  if (mm == TILEOPS_NEG_INF) return;
  s = s * __expf(m - mm) + s2 * __expf(m2 - mm);
  m = mm;
}

extern "C" __global__ void softmax_rows_kernel(const T* __restrict__ x, T* __restrict__ y, i64 n) {
  __shared__ float sm[32], ss[32];
  const T* xr = x + blockIdx.x * n;
  T* yr = y + blockIdx.x * n;
  const i64 packs = n / VEC;
  float m = TILEOPS_NEG_INF, s = 0.0f;
  for (i64 i = threadIdx.x; i < packs; i += blockDim.x) {
    const Pack<T, VEC> p = reinterpret_cast<const Pack<T, VEC>*>(xr)[i];
#pragma unroll
    for (int k = 0; k < VEC; ++k) online_update(m, s, to_float(p.v[k]));
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) online_update(m, s, to_float(xr[i]));
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    online_merge(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
  if (lane == 0) {
    sm[warp] = m;
    ss[warp] = s;
  }
  __syncthreads();
  m = lane < warps ? sm[lane] : TILEOPS_NEG_INF;
  s = lane < warps ? ss[lane] : 0.0f;
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    online_merge(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
  }
  const float log_s = logf(s);
  const float inv_s = 1.0f / s;
  for (i64 i = threadIdx.x; i < packs; i += blockDim.x) {
    const Pack<T, VEC> p = reinterpret_cast<const Pack<T, VEC>*>(xr)[i];
    Pack<T, VEC> o;
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      const float d = to_float(p.v[k]) - m;
      o.v[k] = from_float<T>(LOG ? d - log_s : expf(d) * inv_s);
    }
    reinterpret_cast<Pack<T, VEC>*>(yr)[i] = o;
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
    const float d = to_float(xr[i]) - m;
    yr[i] = from_float<T>(LOG ? d - log_s : expf(d) * inv_s);
  }
}

extern "C" __global__ void softmax_strided_kernel(const T* __restrict__ x, T* __restrict__ y,
                                                  i64 outer, i64 n, i64 inner) {
  const i64 columns = outer * inner;
  for (i64 c = blockIdx.x * (i64)blockDim.x + threadIdx.x; c < columns; c += (i64)gridDim.x * blockDim.x) {
    const i64 o = c / inner, in = c - o * inner;
    const T* base = x + o * n * inner + in;
    float m = TILEOPS_NEG_INF, s = 0.0f;
    for (i64 j = 0; j < n; ++j) online_update(m, s, to_float(base[j * inner]));
    const float log_s = logf(s), inv_s = 1.0f / s;
    T* out = y + o * n * inner + in;
    for (i64 j = 0; j < n; ++j) {
      const float d = to_float(base[j * inner]) - m;
      out[j * inner] = from_float<T>(LOG ? d - log_s : expf(d) * inv_s);
    }
  }
}
