// Skinny GEMM (decode and small batches, M <= 8 * MT): d[M, N] = x[M, K] . w[N, K]^T, streaming
// the weight w once at memory speed.
//
// Work split: block b of the grid (a few per SM) owns the output columns [N * b / G,
// N * (b + 1) / G), so every block streams the same number of weight rows, give or take one, and
// no wave of blocks is left part-full. A block walks its columns in steps of 16 weight rows (the
// A operand of mma.sync; a step past the block's last column is masked); its warps share out each
// round of steps as one contiguous run of (step, 32-element k chunk) pairs, so a warp streams
// long row segments and the partial sums of a step meet in shared memory.
//
// Each warp keeps DEPTH chunks of weight in flight: it consumes chunk i and issues the load of
// chunk i + DEPTH into the registers just freed, so the loads never drain between chunks.
//
// The reduction order over k does not matter, so each lane loads 8 consecutive k of a weight row
// as one 16-byte access and feeds them to the MMA in a permuted order; x is loaded with the same
// permutation, so each product pairs the right elements.
//
// The tail (gemm_tail.cuh) is applied in the store. Gated (GATED_ACT >= 0): w holds 2N rows,
// gate then up; a step's 16 MMA rows are 8 gate rows over their 8 up rows, so it covers 8
// output columns and the gate sums meet their up sums in shared memory.
//
// Prelude: T (bf16 or f16), MT (n8 groups: ceil(M / 8)), WARPS, DEPTH, ROUND_STEPS, GATED_ACT
// (-1 or an activation code of device/activation.cuh). Needs K % 8 == 0 and 16-byte aligned x
// and w.
#include "device/mma_sync.cuh"
#include "device/vec.cuh"
#include "gemm/gemm_tail.cuh"

using namespace tileops::dev;

constexpr bool GATED = GATED_ACT >= 0;
constexpr int STEP_COLUMNS = GATED ? 8 : 16;  // output columns of one 16-row step
constexpr int CHUNK = 32;                     // k per warp per chunk: 4 lanes x 8 elements

struct Chunk {
  U32x4 lo, hi, x[MT];
};

extern "C" __global__ void __launch_bounds__(WARPS * 32, 2)
    gemm_skinny_kernel(const T* __restrict__ x_batch, const T* __restrict__ w_batch, T* d_batch,
                       int M, int N, int K, const T* bias, const T* residual_batch, i64 batch) {
  // Sums of the round's steps: [step][MMA row][x row].
  __shared__ float partial[ROUND_STEPS][16][MT * 8];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;
  const int col_begin = static_cast<int>(static_cast<i64>(N) * blockIdx.x / gridDim.x);
  const int col_end = static_cast<int>(static_cast<i64>(N) * (blockIdx.x + 1) / gridDim.x);
  const int k_chunks = (K + CHUNK - 1) / CHUNK;

  for (int i = threadIdx.x; i < ROUND_STEPS * 16 * MT * 8; i += blockDim.x)
    (&partial[0][0][0])[i] = 0.0f;
  __syncthreads();

  // Problem p of the batch: x [M, K], w [N (2N gated), K], d and residual [M, N].
  for (i64 p = blockIdx.y; p < batch; p += gridDim.y) {
    const T* x = x_batch + p * M * K;
    const T* w = w_batch + p * (GATED ? 2 : 1) * static_cast<i64>(N) * K;
    T* d = d_batch + p * M * N;
    const GemmTailArgs<T> tail{bias,
                               residual_batch != nullptr ? residual_batch + p * M * N : nullptr};

    for (int round_col = col_begin; round_col < col_end; round_col += ROUND_STEPS * STEP_COLUMNS) {
      const int steps = min(ROUND_STEPS, (col_end - round_col + STEP_COLUMNS - 1) / STEP_COLUMNS);
      const int total = steps * k_chunks;
      const int f_begin = static_cast<int>(static_cast<i64>(total) * warp / WARPS);
      const int f_end = static_cast<int>(static_cast<i64>(total) * (warp + 1) / WARPS);

      // Chunk f: step f / k_chunks, k = (f % k_chunks) * CHUNK + 8 t. MMA rows g and g + 8 are
      // weight rows c + g and c + g + 8 of the step's first column c, or (gated) gate row c + g
      // and its up row N + c + g.
      auto issue = [&](Chunk& ch, int f) {
        const int step = f / k_chunks;
        const int k = (f - step * k_chunks) * CHUNK + 8 * t;
        const int c = round_col + step * STEP_COLUMNS + g;
        const bool in = f < f_end && k < K;
        const bool lo_in = in && c < col_end;
        const bool hi_in = GATED ? lo_in : in && c + 8 < col_end;
        ch.lo = load_stream_16_if(w + static_cast<i64>(lo_in ? c : 0) * K + (in ? k : 0), lo_in);
        ch.hi = load_stream_16_if(
            w + static_cast<i64>(hi_in ? (GATED ? N : 8) + c : 0) * K + (in ? k : 0), hi_in);
#pragma unroll
        for (int j = 0; j < MT; ++j) {
          const int m = 8 * j + g;
          ch.x[j] = load_readonly_16_if(x + static_cast<i64>(m < M ? m : 0) * K + (in ? k : 0),
                                        in && m < M);
        }
      };
      float acc[MT][4];
      auto clear = [&] {
#pragma unroll
        for (int j = 0; j < MT; ++j) acc[j][0] = acc[j][1] = acc[j][2] = acc[j][3] = 0.0f;
      };
      auto flush = [&](int step) {
#pragma unroll
        for (int j = 0; j < MT; ++j) {
          atomicAdd(&partial[step][g][8 * j + 2 * t], acc[j][0]);
          atomicAdd(&partial[step][g][8 * j + 2 * t + 1], acc[j][1]);
          atomicAdd(&partial[step][g + 8][8 * j + 2 * t], acc[j][2]);
          atomicAdd(&partial[step][g + 8][8 * j + 2 * t + 1], acc[j][3]);
        }
      };

      Chunk ring[DEPTH];
#pragma unroll
      for (int u = 0; u < DEPTH; ++u) issue(ring[u], f_begin + u);
      clear();
      int step = f_begin / k_chunks;
      for (int f = f_begin; f < f_end; f += DEPTH) {
#pragma unroll
        for (int b = 0; b < DEPTH; b += BURST) {
#pragma unroll
          for (int u = b; u < b + BURST; ++u) {
            if (f + u < f_end) {
              const int s = (f + u) / k_chunks;
              if (s != step) {
                flush(step);
                clear();
                step = s;
              }
              const Chunk& ch = ring[u];
#pragma unroll
              for (int j = 0; j < MT; ++j) {
                mma_m16n8k16<T>(acc[j], ch.lo.x, ch.hi.x, ch.lo.y, ch.hi.y, ch.x[j].x, ch.x[j].y);
                mma_m16n8k16<T>(acc[j], ch.lo.z, ch.hi.z, ch.lo.w, ch.hi.w, ch.x[j].z, ch.x[j].w);
              }
            }
          }
#pragma unroll
          for (int u = b; u < b + BURST; ++u) issue(ring[u], f + u + DEPTH);
        }
      }
      if (f_begin < f_end) flush(step);
      __syncthreads();

      // Thread i stores output column round_col + i % (steps * STEP_COLUMNS) of x row
      // i / (steps * STEP_COLUMNS), and zeroes the sums it read for the next round.
      const int width = steps * STEP_COLUMNS;
      for (int i = threadIdx.x; i < width * MT * 8; i += blockDim.x) {
        const int col = i % width, m = i / width;
        const int s = col / STEP_COLUMNS, r = col % STEP_COLUMNS;
        float sum = partial[s][r][m], up = 0.0f;
        if (GATED) up = partial[s][r + 8][m];
        partial[s][r][m] = 0.0f;
        if (GATED) partial[s][r + 8][m] = 0.0f;
        const int n = round_col + col;
        if (m >= M || n >= col_end) continue;
        d[static_cast<i64>(m) * N + n] =
            from_float<T>(gemm_tail(tail, GATED_ACT, sum, up, m, n, N));
      }
      __syncthreads();
    }
  }
}
