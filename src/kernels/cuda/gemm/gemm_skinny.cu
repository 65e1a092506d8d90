// Skinny GEMM (decode and small batches, M <= 8 * MT): d[M, N] = x[M, K] . w[N, K]^T, streaming
// the weight w once at memory speed. Block b of the G = gridDim.x blocks (the host launches one
// per OUT_ROWS columns) owns the output columns [N * b / G, N * (b + 1) / G), at most OUT_ROWS
// (16 weight rows), so the blocks stream equal shares give or take a row. Its WARPS warps split K
// into contiguous ranges, each running mma.sync with the weight as the 16-row A operand (rows past
// the block's share masked) and x as the B operand (one n8 group per 8 rows of x); the partial
// sums meet in shared memory.
//
// The reduction order over k does not matter, so each lane loads 8 consecutive k of a weight row
// as one 16-byte access and feeds them to the MMA in a permuted order; x is loaded with the same
// permutation, so each product pairs the right elements.
//
// The tail (gemm_tail.cuh) is applied in the store. Gated (GATED_ACT >= 0): w holds 2N rows,
// gate then up; a block's 16 MMA rows are 8 gate rows over their 8 up rows, so it covers 8
// output columns and meets each gate sum with its up sum in shared memory.
//
// Prelude: T (bf16 or f16), MT (n8 groups: ceil(M / 8)), WARPS, UNROLL, GATED_ACT (-1 or an
// activation code of device/activation.cuh). Needs K % 8 == 0 and 16-byte aligned x and w.
#include "device/mma_sync.cuh"
#include "device/vec.cuh"
#include "gemm/gemm_tail.cuh"

using namespace tileops::dev;

constexpr int ROWS = 16;
constexpr bool GATED = GATED_ACT >= 0;
constexpr int OUT_ROWS = GATED ? 8 : 16;  // the most output columns a block covers
constexpr int CHUNK = 32;                 // k per warp step: 4 lanes x 8 elements

extern "C" __global__ void __launch_bounds__(WARPS * 32, 1)
    gemm_skinny_kernel(const T* __restrict__ x_batch, const T* __restrict__ w_batch, T* d_batch,
                       int M, int N, int K, const T* bias, const T* residual_batch, i64 batch) {
  __shared__ float partial[WARPS][ROWS][MT * 8];
  // Problem p of the batch: x [M, K], w [N (2N gated), K], d and residual [M, N].
  for (i64 p = blockIdx.y; p < batch; p += gridDim.y) {
    const T* x = x_batch + p * M * K;
    const T* w = w_batch + p * (GATED ? 2 : 1) * static_cast<i64>(N) * K;
    T* d = d_batch + p * M * N;
    const T* residual = residual_batch != nullptr ? residual_batch + p * M * N : nullptr;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int g = lane / 4, t = lane % 4;
    const int n0 = static_cast<int>(static_cast<i64>(N) * blockIdx.x / gridDim.x);
    const int n_end = static_cast<int>(static_cast<i64>(N) * (blockIdx.x + 1) / gridDim.x);
    // MMA rows g and g + 8: weight rows n0 + g and n0 + g + 8, or (gated) gate row n0 + g and its
    // up row N + n0 + g.
    const bool row_lo = n0 + g < n_end, row_hi = GATED ? row_lo : n0 + g + 8 < n_end;
    const T* w_lo = w + static_cast<i64>(row_lo ? n0 + g : 0) * K;
    const T* w_hi = w + static_cast<i64>(row_hi ? (GATED ? N : 8) + n0 + g : 0) * K;

    const int chunks = ceil_div(K, CHUNK);
    const int per_warp = ceil_div(chunks, WARPS);
    const int c_begin = warp * per_warp;
    const int c_end = min(chunks, c_begin + per_warp);

    float acc[MT][4];
#pragma unroll
    for (int j = 0; j < MT; ++j) acc[j][0] = acc[j][1] = acc[j][2] = acc[j][3] = 0.0f;

    // Every load of UNROLL chunks (weight and x) is issued before the first MMA that needs them,
    // so each warp keeps UNROLL * 1 KiB of weight in flight. Loads are unconditional (an address
    // out of range is clamped to the row start and the value zeroed after).
    for (int c = c_begin; c < c_end; c += UNROLL) {
      U32x4 lo[UNROLL], hi[UNROLL], xs[UNROLL][MT];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        const int k = (c + u) * CHUNK + 8 * t;
        const int kk = c + u < c_end && k < K ? k : 0;
        lo[u] = load_stream_16(w_lo + kk);
        hi[u] = load_stream_16(w_hi + kk);
#pragma unroll
        for (int j = 0; j < MT; ++j) {
          const int m = min(8 * j + g, M - 1);
          xs[u][j] = load_readonly_16(x + static_cast<i64>(m) * K + kk);
        }
      }
      // A warp barrier keeps the compiler from sinking the loads below it to their uses.
      __syncwarp();
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        const int k = (c + u) * CHUNK + 8 * t;
        const bool in = c + u < c_end && k < K;
        if (!(in && row_lo)) lo[u] = U32x4{0, 0, 0, 0};
        if (!(in && row_hi)) hi[u] = U32x4{0, 0, 0, 0};
#pragma unroll
        for (int j = 0; j < MT; ++j) {
          if (!in || 8 * j + g >= M) xs[u][j] = U32x4{0, 0, 0, 0};
        }
      }
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
        for (int j = 0; j < MT; ++j) {
          mma_m16n8k16<T>(acc[j], lo[u].x, hi[u].x, lo[u].y, hi[u].y, xs[u][j].x, xs[u][j].y);
          mma_m16n8k16<T>(acc[j], lo[u].z, hi[u].z, lo[u].w, hi[u].w, xs[u][j].z, xs[u][j].w);
        }
      }
    }

#pragma unroll
    for (int j = 0; j < MT; ++j) {
      partial[warp][g][8 * j + 2 * t] = acc[j][0];
      partial[warp][g][8 * j + 2 * t + 1] = acc[j][1];
      partial[warp][g + 8][8 * j + 2 * t] = acc[j][2];
      partial[warp][g + 8][8 * j + 2 * t + 1] = acc[j][3];
    }
    __syncthreads();
    // Thread i sums output column n0 + i % OUT_ROWS for x rows i / OUT_ROWS, ...
    const GemmTailArgs<T> tail{bias, residual};
    for (int i = threadIdx.x; i < OUT_ROWS * MT * 8; i += blockDim.x) {
      const int r = i % OUT_ROWS, m = i / OUT_ROWS;
      if (m >= M || n0 + r >= n_end) continue;
      float s = 0.0f, up = 0.0f;
#pragma unroll
      for (int v = 0; v < WARPS; ++v) {
        s += partial[v][r][m];
        if (GATED) up += partial[v][r + 8][m];
      }
      d[static_cast<i64>(m) * N + n0 + r] =
          from_float<T>(gemm_tail(tail, GATED_ACT, s, up, m, n0 + r, N));
    }
    __syncthreads();  // partial is rewritten by the next problem
  }
}
