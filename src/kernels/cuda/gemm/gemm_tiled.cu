// A simple correct GEMM: d[m, n] = sum_k a[m, k] * b[k, n] with 64x64 output tiles, a 16-deep
// k-step through shared memory and a 4x4 micro-tile per thread, fp32 accumulation. a is [M,K]
// ([K,M] when TRANS_A), b is [N,K] when TRANS_B else [K,N]. Prelude: T, TRANS_A, TRANS_B.
constexpr int BM = 64, BN = 64, BK = 16;

__device__ __forceinline__ float load_a(const T* a, i64 M, i64 K, i64 row, i64 col) {
  if (row >= M || col >= K) return 0.0f;
  return TRANS_A ? to_float(a[col * M + row]) : to_float(a[row * K + col]);
}
__device__ __forceinline__ float load_b(const T* b, i64 N, i64 K, i64 kk, i64 col) {
  if (kk >= K || col >= N) return 0.0f;
  return TRANS_B ? to_float(b[col * K + kk]) : to_float(b[kk * N + col]);
}

extern "C" __global__ void __launch_bounds__(256) gemm_tiled_kernel(const T* __restrict__ a,
                                                                    const T* __restrict__ b,
                                                                    T* __restrict__ d, i64 M, i64 N,
                                                                    i64 K) {
  __shared__ float as[BK][BM + 1];
  __shared__ float bs[BK][BN + 1];
  const i64 m0 = (i64)blockIdx.y * BM, n0 = (i64)blockIdx.x * BN;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  float acc[4][4] = {};
  for (i64 k0 = 0; k0 < K; k0 += BK) {
    for (int e = threadIdx.x; e < BM * BK; e += 256) {
      const int r = e / BK, c = e % BK;
      as[c][r] = load_a(a, M, K, m0 + r, k0 + c);
      const int br = e / BN, bc = e % BN;
      bs[br][bc] = load_b(b, N, K, k0 + br, n0 + bc);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float ar[4], br[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) ar[i] = as[kk][ty * 4 + i];
#pragma unroll
      for (int j = 0; j < 4; ++j) br[j] = bs[kk][tx * 4 + j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] += ar[i] * br[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const i64 row = m0 + ty * 4 + i;
    if (row >= M) continue;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const i64 col = n0 + tx * 4 + j;
      if (col < N) d[row * N + col] = from_float<T>(acc[i][j]);
    }
  }
}
