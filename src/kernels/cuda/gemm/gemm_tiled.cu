// A simple correct GEMM on CUDA cores: d[m, n] = sum_k a[m, k] * b[k, n] with BMxBN output tiles,
// a BK-deep k-step through shared memory and a TMxTN micro-tile per thread, fp32 accumulation in
// ascending k (so every tile configuration gives the same result). a is [M,K] ([K,M] when
// TRANS_A), b is [N,K] when TRANS_B else [K,N]; a gated call (act >= 0) reads 2N columns of b
// (gate, then up) and runs the k loop once per half. The batch's problems are walked by
// blockIdx.z. Prelude: T, TRANS_A, TRANS_B, BM, BN, BK, TM, TN.
#include "device/numeric.cuh"
#include "gemm/gemm_tail.cuh"

using namespace tileops::dev;

constexpr int THREADS_N = BN / TN;
constexpr int THREADS = (BM / TM) * THREADS_N;

__device__ __forceinline__ float load_a(const T* a, i64 M, i64 K, i64 row, i64 col) {
  if (row >= M || col >= K) return 0.0f;
  return TRANS_A ? to_float(a[col * M + row]) : to_float(a[row * K + col]);
}
// Column col (< N) of op(b) starting at column `first` of b's ldb columns.
__device__ __forceinline__ float load_b(const T* b, i64 N, i64 K, i64 ldb, i64 first, i64 kk,
                                        i64 col) {
  if (kk >= K || col >= N) return 0.0f;
  return TRANS_B ? to_float(b[(first + col) * K + kk]) : to_float(b[kk * ldb + first + col]);
}

// The tile's sums over K of op(a) rows and op(b) columns [first + n0, first + n0 + BN).
__device__ __forceinline__ void tile_sums(const T* a, const T* b, i64 M, i64 N, i64 K, i64 ldb,
                                          i64 first, i64 m0, i64 n0, float (*as)[BM + 1],
                                          float (*bs)[BN + 1], float (&acc)[TM][TN]) {
  const int tx = threadIdx.x % THREADS_N, ty = threadIdx.x / THREADS_N;
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;
  for (i64 k0 = 0; k0 < K; k0 += BK) {
    for (int e = threadIdx.x; e < BM * BK; e += THREADS) {
      const int r = e / BK, c = e % BK;
      as[c][r] = load_a(a, M, K, m0 + r, k0 + c);
    }
    for (int e = threadIdx.x; e < BK * BN; e += THREADS) {
      const int r = e / BN, c = e % BN;
      bs[r][c] = load_b(b, N, K, ldb, first, k0 + r, n0 + c);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float ar[TM], br[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) ar[i] = as[kk][ty * TM + i];
#pragma unroll
      for (int j = 0; j < TN; ++j) br[j] = bs[kk][tx * TN + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(ar[i], br[j], acc[i][j]);
    }
    __syncthreads();
  }
}

extern "C" __global__ void __launch_bounds__(THREADS)
    gemm_tiled_kernel(const T* __restrict__ a_batch, const T* __restrict__ b_batch, T* d_batch,
                      i64 M, i64 N, i64 K, int act, const T* bias, const T* residual_batch,
                      i64 batch) {
  __shared__ float as[BK][BM + 1];
  __shared__ float bs[BK][BN + 1];
  const i64 m0 = (i64)blockIdx.y * BM, n0 = (i64)blockIdx.x * BN;
  const int tx = threadIdx.x % THREADS_N, ty = threadIdx.x / THREADS_N;
  const i64 ldb = act >= 0 ? 2 * N : N;
  for (i64 p = blockIdx.z; p < batch; p += gridDim.z) {
    const T* a = a_batch + p * M * K;
    const T* b = b_batch + p * ldb * K;
    T* d = d_batch + p * M * N;
    const T* residual = residual_batch != nullptr ? residual_batch + p * M * N : nullptr;
    float acc[TM][TN], up[TM][TN];
    if (act >= 0) {
      tile_sums(a, b, M, N, K, ldb, N, m0, n0, as, bs, acc);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) up[i][j] = acc[i][j];
    }
    tile_sums(a, b, M, N, K, ldb, 0, m0, n0, as, bs, acc);
    const GemmTailArgs<T> tail{bias, residual};
#pragma unroll
    for (int i = 0; i < TM; ++i) {
      const i64 row = m0 + ty * TM + i;
      if (row >= M) continue;
#pragma unroll
      for (int j = 0; j < TN; ++j) {
        const i64 col = n0 + tx * TN + j;
        if (col < N) {
          d[row * N + col] = from_float<T>(
              gemm_tail(tail, act, acc[i][j], act >= 0 ? up[i][j] : 0.0f, row, col, N));
        }
      }
    }
  }
}
