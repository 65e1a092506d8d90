// Skinny GEMM (decode and small batches, M <= 8 * MT) through a TMA pipeline: d[M, N] =
// x[M, K] . w[N, K]^T with the weight w streamed once. Block b covers the output columns
// [16 b, 16 b + 16) (8 when gated). One producer warp keeps STAGES stages of the block's 16 weight
// rows (STAGE_K k each, four 128-byte-swizzled TMA boxes) in flight, so the weight arrives as a
// steady stream instead of in bursts a warp must wait out before issuing more; CWARPS consumer
// warps split each stage's k, run mma.sync with the weight as the 16-row A operand and x as the B
// operand (one n8 group per 8 rows of x), hand the stage back, and meet in shared memory at the
// end.
//
// Each lane reads 8 consecutive k of a weight row from shared memory and feeds them to the MMA in
// a permuted order; x is loaded with the same permutation (as in gemm_skinny.cu). Rows past N and
// k past K load as zero (TMA's out-of-bounds fill), and x past K is zeroed, so tails need no other
// code. Gated (GATED_ACT >= 0): the map holds 2N rows, gate then up; a block loads 8 gate rows
// over their 8 up rows and covers 8 output columns.
//
// Prelude: T (bf16 or f16), MT, STAGES, CWARPS, GATED_ACT. Needs K % 8 == 0 and x 16-byte aligned;
// the map is a 3-D (k, row, problem) map with 64 x 16 (gated: 64 x 8) boxes.
#include "device/mma_sync.cuh"
#include "device/sm90/mbarrier.cuh"
#include "device/sm90/tma.cuh"
#include "device/sm90/warpgroup.cuh"
#include "device/vec.cuh"
#include "gemm/gemm_tail.cuh"

using namespace tileops::dev;
using namespace tileops::dev::sm90;

constexpr bool GATED = GATED_ACT >= 0;
constexpr int ROWS = 16;                           // MMA rows: weight rows in a stage
constexpr int OUT_ROWS = GATED ? 8 : 16;           // output columns a block covers
constexpr int BOX_K = 64;                          // k of one swizzled box row (128 bytes)
constexpr int STAGE_K = 256;                       // k a stage holds
constexpr int BOXES = STAGE_K / BOX_K;             // boxes (16 rows x 128 bytes) a stage holds
constexpr int BOX_ELEMS = ROWS * BOX_K;            // elements of a box region
constexpr int STAGE_ELEMS = BOXES * BOX_ELEMS;     // elements of a stage
constexpr int STAGE_BYTES = STAGE_ELEMS * 2;       // 8 KiB
constexpr int CHUNK = 32;                          // k per MMA pair: 4 lanes x 8 elements
constexpr int CHUNKS = STAGE_K / CHUNK;            // chunks a stage holds
constexpr int PER_WARP = CHUNKS / CWARPS;          // chunks a consumer warp takes of each stage
static_assert(CHUNKS % CWARPS == 0, "the consumer warps split a stage evenly");

// Shared memory: the stages (1024-byte aligned for the swizzle), then the barriers, then the
// consumers' partial sums (two sets, so a batch's next problem need not wait for the last sums).
constexpr int BARRIER_OFFSET = STAGES * STAGE_BYTES;
constexpr int PARTIAL_OFFSET = BARRIER_OFFSET + 2 * STAGES * 8;
constexpr int PARTIAL_FLOATS = CWARPS * ROWS * MT * 8;
constexpr int SHARED_BYTES = 1024 + PARTIAL_OFFSET + 2 * PARTIAL_FLOATS * 4;  // with alignment slack

// Element (row r, 16-byte chunk c of the box row) of a 128-byte-swizzled box.
__device__ __forceinline__ const T* swizzled(const T* box, int r, int c) {
  return box + r * BOX_K + ((c ^ (r & 7)) << 3);
}

extern "C" __global__ void __launch_bounds__((CWARPS + 1) * 32)
    gemm_stream_kernel(const __grid_constant__ TensorMap wmap, const T* __restrict__ x_batch,
                       T* d_batch, int M, int N, int K, const T* bias, const T* residual_batch,
                       i64 batch) {
  extern __shared__ unsigned char smem_raw[];
  // 128-byte swizzled boxes must start on 1024-byte boundaries (the host adds the slack).
  unsigned char* smem = smem_raw + ((1024 - (smem_u32(smem_raw) & 1023)) & 1023);
  const T* stages = reinterpret_cast<const T*>(smem);
  u64* full = reinterpret_cast<u64*>(smem + BARRIER_OFFSET);
  u64* empty = full + STAGES;
  float* partials = reinterpret_cast<float*>(smem + PARTIAL_OFFSET);

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbar_init(&full[s], 1);
      mbar_init(&empty[s], CWARPS);
    }
    mbar_fence_init();
  }
  __syncthreads();

  const int n0 = blockIdx.x * OUT_ROWS;
  const int k_stages = ceil_div(K, STAGE_K);

  if (warp == CWARPS) {
    if (lane != 0) return;
    tma_prefetch_map(&wmap);
    int it = 0;  // stages issued, over all problems: the ring position and phase
    for (i64 p = blockIdx.y; p < batch; p += gridDim.y) {
      for (int c = 0; c < k_stages; ++c, ++it) {
        const int s = it % STAGES;
        if (it >= STAGES) mbar_wait(&empty[s], (it / STAGES - 1) & 1);
        mbar_arrive_expect_tx(&full[s], STAGE_BYTES);
        T* dst = const_cast<T*>(stages) + s * STAGE_ELEMS;
#pragma unroll
        for (int b = 0; b < BOXES; ++b) {
          const int k = c * STAGE_K + b * BOX_K;
          tma_load_3d(dst + b * BOX_ELEMS, &wmap, &full[s], k, n0, static_cast<int>(p));
          if (GATED) {
            tma_load_3d(dst + b * BOX_ELEMS + 8 * BOX_K, &wmap, &full[s], k, N + n0,
                        static_cast<int>(p));
          }
        }
      }
    }
    return;
  }

  const int g = lane / 4, t = lane % 4;
  int it = 0, round = 0;
  for (i64 p = blockIdx.y; p < batch; p += gridDim.y, ++round) {
    const T* x = x_batch + p * M * K;
    T* d = d_batch + p * M * N;
    const T* residual = residual_batch != nullptr ? residual_batch + p * M * N : nullptr;

    float acc[MT][4];
#pragma unroll
    for (int j = 0; j < MT; ++j) acc[j][0] = acc[j][1] = acc[j][2] = acc[j][3] = 0.0f;

    for (int c = 0; c < k_stages; ++c, ++it) {
      const int s = it % STAGES;
      // x first: it comes from L1 or L2 and its latency overlaps the wait for the stage.
      U32x4 xs[PER_WARP][MT];
#pragma unroll
      for (int u = 0; u < PER_WARP; ++u) {
        const int k = c * STAGE_K + (warp * PER_WARP + u) * CHUNK + 8 * t;
#pragma unroll
        for (int j = 0; j < MT; ++j) {
          const int m = 8 * j + g;
          xs[u][j] = k < K && m < M ? load_readonly_16(x + static_cast<i64>(m) * K + k)
                                    : U32x4{0, 0, 0, 0};
        }
      }
      mbar_wait(&full[s], (it / STAGES) & 1);
      const T* stage = stages + s * STAGE_ELEMS;
      U32x4 lo[PER_WARP], hi[PER_WARP];
#pragma unroll
      for (int u = 0; u < PER_WARP; ++u) {
        const int q = warp * PER_WARP + u;  // chunk of the stage: box q / 2, half q % 2
        const T* box = stage + (q / 2) * BOX_ELEMS;
        const int chunk16 = 4 * (q % 2) + t;
        lo[u] = *reinterpret_cast<const U32x4*>(swizzled(box, g, chunk16));
        hi[u] = *reinterpret_cast<const U32x4*>(swizzled(box, g + 8, chunk16));
      }
      __syncwarp();
      if (lane == 0) mbar_arrive(&empty[s]);
#pragma unroll
      for (int u = 0; u < PER_WARP; ++u) {
#pragma unroll
        for (int j = 0; j < MT; ++j) {
          mma_m16n8k16<T>(acc[j], lo[u].x, hi[u].x, lo[u].y, hi[u].y, xs[u][j].x, xs[u][j].y);
          mma_m16n8k16<T>(acc[j], lo[u].z, hi[u].z, lo[u].w, hi[u].w, xs[u][j].z, xs[u][j].w);
        }
      }
    }

    float(*partial)[ROWS][MT * 8] =
        reinterpret_cast<float(*)[ROWS][MT * 8]>(partials + (round & 1) * PARTIAL_FLOATS);
#pragma unroll
    for (int j = 0; j < MT; ++j) {
      partial[warp][g][8 * j + 2 * t] = acc[j][0];
      partial[warp][g][8 * j + 2 * t + 1] = acc[j][1];
      partial[warp][g + 8][8 * j + 2 * t] = acc[j][2];
      partial[warp][g + 8][8 * j + 2 * t + 1] = acc[j][3];
    }
    named_barrier_sync(1, CWARPS * 32);
    // Thread i sums output column n0 + i % OUT_ROWS for x row i / OUT_ROWS, ...
    const GemmTailArgs<T> tail{bias, residual};
    for (int i = threadIdx.x; i < OUT_ROWS * MT * 8; i += CWARPS * 32) {
      const int r = i % OUT_ROWS, m = i / OUT_ROWS;
      if (m >= M || n0 + r >= N) continue;
      float sum = 0.0f, up = 0.0f;
#pragma unroll
      for (int v = 0; v < CWARPS; ++v) {
        sum += partial[v][r][m];
        if (GATED) up += partial[v][r + 8][m];
      }
      d[static_cast<i64>(m) * N + n0 + r] =
          from_float<T>(gemm_tail(tail, GATED_ACT, sum, up, m, n0 + r, N));
    }
  }
}
