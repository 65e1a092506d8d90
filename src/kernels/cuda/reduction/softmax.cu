// softmax / log_softmax over the middle dim of x viewed as [outer, n, inner].
//   softmax_rows_kernel (inner == 1): one block per row; one pass keeps a running max and sum
//     while caching up to CACHE packs per thread in registers, then the output pass.
//   softmax_partial_kernel + softmax_finish_kernel (inner == 1, few long rows): each row split
//     over gridDim.x blocks; the first kernel writes each chunk's (max, sum), the second merges
//     a row's partials and writes its chunk.
//   softmax_cluster_kernel (inner == 1, few long rows, Hopper): each row over a cluster of
//     CLUSTER blocks in one pass (below).
//   softmax_strided_kernel (inner > 1): one thread per (outer, inner) column.
// Prelude: T, VEC, CACHE, LOG (log_softmax when true).
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

// Merges (m, s) over the block; every thread gets the result.
__device__ __forceinline__ void block_merge(float& m, float& s, float* sm, float* ss) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    online_merge(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
  __syncthreads();
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
}

__device__ __forceinline__ float finish(float v, float m, float log_s, float inv_s) {
  const float d = v - m;
  return LOG ? d - log_s : expf(d) * inv_s;
}

extern "C" __global__ void ROW_BOUNDS softmax_rows_kernel(const T* __restrict__ x, T* __restrict__ y, i64 n) {
  __shared__ float sm[32], ss[32];
  typedef Pack<T, VEC> P;
  const P* xr = reinterpret_cast<const P*>(x + blockIdx.x * n);
  P* yr = reinterpret_cast<P*>(y + blockIdx.x * n);
  const T* xs = x + blockIdx.x * n;
  T* ys = y + blockIdx.x * n;
  const i64 packs = n / VEC, cached = (i64)CACHE * blockDim.x;
  P cache[CACHE > 0 ? CACHE : 1];
  float m = TILEOPS_NEG_INF, s = 0.0f;
#pragma unroll
  for (int c = 0; c < CACHE; ++c) {
    const i64 i = threadIdx.x + (i64)c * blockDim.x;
    if (i < packs) {
      cache[c] = xr[i];
#pragma unroll
      for (int k = 0; k < VEC; ++k) online_update(m, s, to_float(cache[c].v[k]));
    }
  }
  for (i64 i = cached + threadIdx.x; i < packs; i += blockDim.x) {
    const P p = xr[i];
#pragma unroll
    for (int k = 0; k < VEC; ++k) online_update(m, s, to_float(p.v[k]));
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) online_update(m, s, to_float(xs[i]));
  block_merge(m, s, sm, ss);
  const float log_s = logf(s), inv_s = 1.0f / s;
#pragma unroll
  for (int c = 0; c < CACHE; ++c) {
    const i64 i = threadIdx.x + (i64)c * blockDim.x;
    if (i < packs) {
      P o;
#pragma unroll
      for (int k = 0; k < VEC; ++k) o.v[k] = from_float<T>(finish(to_float(cache[c].v[k]), m, log_s, inv_s));
      yr[i] = o;
    }
  }
  for (i64 i = cached + threadIdx.x; i < packs; i += blockDim.x) {
    const P p = xr[i];
    P o;
#pragma unroll
    for (int k = 0; k < VEC; ++k) o.v[k] = from_float<T>(finish(to_float(p.v[k]), m, log_s, inv_s));
    yr[i] = o;
  }
  for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
    ys[i] = from_float<T>(finish(to_float(xs[i]), m, log_s, inv_s));
  }
}

// Chunk c of row r covers packs [c * chunk, min((c + 1) * chunk, packs)); the tail elements
// (n % VEC) belong to the last chunk.
extern "C" __global__ void softmax_partial_kernel(const T* __restrict__ x, float2* __restrict__ partial,
                                                  i64 n, i64 chunk) {
  __shared__ float sm[32], ss[32];
  const i64 row = blockIdx.y, packs = n / VEC;
  const Pack<T, VEC>* xr = reinterpret_cast<const Pack<T, VEC>*>(x + row * n);
  const i64 begin = blockIdx.x * chunk, end = min(begin + chunk, packs);
  float m = TILEOPS_NEG_INF, s = 0.0f;
  for (i64 i = begin + threadIdx.x; i < end; i += blockDim.x) {
    const Pack<T, VEC> p = xr[i];
#pragma unroll
    for (int k = 0; k < VEC; ++k) online_update(m, s, to_float(p.v[k]));
  }
  if (blockIdx.x == gridDim.x - 1) {
    for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) online_update(m, s, to_float(x[row * n + i]));
  }
  block_merge(m, s, sm, ss);
  if (threadIdx.x == 0) partial[row * gridDim.x + blockIdx.x] = make_float2(m, s);
}

extern "C" __global__ void softmax_finish_kernel(const T* __restrict__ x, T* __restrict__ y,
                                                 const float2* __restrict__ partial, i64 n, i64 chunk) {
  const i64 row = blockIdx.y, packs = n / VEC;
  float m = TILEOPS_NEG_INF, s = 0.0f;
  for (int c = 0; c < (int)gridDim.x; ++c) {
    const float2 p = partial[row * gridDim.x + c];
    online_merge(m, s, p.x, p.y);
  }
  const float log_s = logf(s), inv_s = 1.0f / s;
  const Pack<T, VEC>* xr = reinterpret_cast<const Pack<T, VEC>*>(x + row * n);
  Pack<T, VEC>* yr = reinterpret_cast<Pack<T, VEC>*>(y + row * n);
  const i64 begin = blockIdx.x * chunk, end = min(begin + chunk, packs);
  for (i64 i = begin + threadIdx.x; i < end; i += blockDim.x) {
    const Pack<T, VEC> p = xr[i];
    Pack<T, VEC> o;
#pragma unroll
    for (int k = 0; k < VEC; ++k) o.v[k] = from_float<T>(finish(to_float(p.v[k]), m, log_s, inv_s));
    yr[i] = o;
  }
  if (blockIdx.x == gridDim.x - 1) {
    for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
      y[row * n + i] = from_float<T>(finish(to_float(x[row * n + i]), m, log_s, inv_s));
    }
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
    for (i64 j = 0; j < n; ++j) out[j * inner] = from_float<T>(finish(to_float(base[j * inner]), m, log_s, inv_s));
  }
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Few long rows in one pass and one launch: a cluster of CLUSTER blocks takes a row (grid
// (CLUSTER, rows), cluster (CLUSTER, 1, 1)). Each block keeps its chunk of packs in registers
// (the host guarantees chunk <= CLUSTER_CACHE * blockDim.x), reduces it to (max, sum) and
// publishes that in its shared memory; after a cluster barrier every block merges the CLUSTER
// partials through distributed shared memory and writes its chunk. The last barrier keeps each
// block's shared memory alive until every block of the cluster has read it.
constexpr int CLUSTER = 8;
constexpr int CLUSTER_CACHE = 8;

__device__ __forceinline__ void cluster_barrier() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__device__ __forceinline__ float2 load_from_block(const float2* local, unsigned rank) {
  unsigned shared_addr, remote;
  asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(shared_addr) : "l"(local));
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(shared_addr), "r"(rank));
  float2 v;
  asm volatile("ld.shared::cluster.v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "r"(remote) : "memory");
  return v;
}

extern "C" __global__ void __launch_bounds__(512) softmax_cluster_kernel(const T* __restrict__ x, T* __restrict__ y,
                                                                       i64 n, i64 chunk) {
  __shared__ float sm[32], ss[32];
  __shared__ float2 published;
  typedef Pack<T, VEC> P;
  const i64 row = blockIdx.y, packs = n / VEC;
  const P* xr = reinterpret_cast<const P*>(x + row * n);
  P* yr = reinterpret_cast<P*>(y + row * n);
  const i64 begin = blockIdx.x * chunk, end = min(begin + chunk, packs);
  const bool last = blockIdx.x == gridDim.x - 1;
  P cache[CLUSTER_CACHE];
  float m = TILEOPS_NEG_INF, s = 0.0f;
#pragma unroll
  for (int c = 0; c < CLUSTER_CACHE; ++c) {
    const i64 i = begin + threadIdx.x + (i64)c * blockDim.x;
    if (i < end) {
      cache[c] = xr[i];
#pragma unroll
      for (int k = 0; k < VEC; ++k) online_update(m, s, to_float(cache[c].v[k]));
    }
  }
  if (last) {
    for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) online_update(m, s, to_float(x[row * n + i]));
  }
  block_merge(m, s, sm, ss);
  if (threadIdx.x == 0) published = make_float2(m, s);
  cluster_barrier();
  m = TILEOPS_NEG_INF;
  s = 0.0f;
#pragma unroll
  for (unsigned r = 0; r < CLUSTER; ++r) {
    const float2 p = load_from_block(&published, r);
    online_merge(m, s, p.x, p.y);
  }
  const float log_s = logf(s), inv_s = 1.0f / s;
#pragma unroll
  for (int c = 0; c < CLUSTER_CACHE; ++c) {
    const i64 i = begin + threadIdx.x + (i64)c * blockDim.x;
    if (i < end) {
      P o;
#pragma unroll
      for (int k = 0; k < VEC; ++k) o.v[k] = from_float<T>(finish(to_float(cache[c].v[k]), m, log_s, inv_s));
      yr[i] = o;
    }
  }
  if (last) {
    for (i64 i = packs * VEC + threadIdx.x; i < n; i += blockDim.x) {
      y[row * n + i] = from_float<T>(finish(to_float(x[row * n + i]), m, log_s, inv_s));
    }
  }
  cluster_barrier();
}
#endif
