// GEMM on Hopper tensor cores, warp-specialised and persistent: d[M, N] = A[M, K] . B[K, N] with
// fp32 accumulation. One producer warpgroup (a single thread) streams A and B tiles with TMA into
// a ring of STAGES shared-memory stages; BM / 64 consumer warpgroups each own 64 rows of the
// BM x BN output tile and run wgmma over every stage, keeping one stage's MMAs in flight while
// they wait for the next, then store their rows. Stage hand-over uses two mbarriers per stage:
// `full` (TMA bytes landed) and `empty` (every consumer is done reading). Work units (an output
// tile, or one k-share of it under split-K) are walked persistently in groups of GROUP_M
// tile-rows (scheduler.cuh). Edges need no special code: TMA reads out-of-bounds elements as
// zero and the epilogue checks its rows and columns.
//
// A batch of problems (a, b, d one after another) is one walk over every problem's tiles; the TMA
// maps are 3-D, the problem their third coordinate.
//
// Split-K (splits > 1, for grids that would leave SMs idle): each unit writes its fp32 partial
// tile to the caller's workspace and counts itself in (an atomic counter per tile and consumer,
// zeroed before the launch); the last to arrive sums the partials in split order and stores.
//
// The tail (gemm_tail.cuh) is applied in the store. Gated (GATED_ACT >= 0, B K-major): B holds 2N
// rows, gate then up; a tile's B stage is BN / 2 gate rows over the BN / 2 matching up rows, so
// each thread holds a gate sum and its up sum (ACC / 2 registers apart) and the tile covers
// BN / 2 output columns.
//
// Prelude: T (bf16 or f16), BM (64 or 128), BN (64..256), BK (64), STAGES, GROUP_M, A_K_MAJOR
// (A stored [M, K]; else [K, M]), B_K_MAJOR (B stored [N, K]; else [K, N]), GATED_ACT (-1, or
// the activation code of device/activation.cuh).
#include "device/sm90/mbarrier.cuh"
#include "device/sm90/scheduler.cuh"
#include "device/sm90/tma.cuh"
#include "device/sm90/warpgroup.cuh"
#include "device/sm90/wgmma.cuh"
#include "device/vec.cuh"
#include "gemm/gemm_tail.cuh"

using namespace tileops::dev;
using namespace tileops::dev::sm90;

constexpr int CONSUMERS = BM / 64;
constexpr int THREADS = kWarpgroupThreads * (CONSUMERS + 1);
constexpr int ELEM = sizeof(T);
constexpr int A_TILE_BYTES = BM * BK * ELEM;
constexpr int B_TILE_BYTES = BN * BK * ELEM;
constexpr int BOX_BYTES = 64 * BK * ELEM;  // 64 rows (K-major) or 64 MN elements (MN-major)
constexpr int ACC = BN / 2;
constexpr bool GATED = GATED_ACT >= 0;
constexpr int OUT_BN = GATED ? BN / 2 : BN;  // output columns a tile covers
static_assert(BK * ELEM == 128, "a tile row is one 128-byte swizzle row");
static_assert(BM == 64 || BM == 128, "one or two consumer warpgroups");
static_assert(BN % 64 == 0, "B tiles are whole 64-element boxes");
static_assert(!GATED || (B_K_MAJOR && BN % 16 == 0), "gated tiles stack two K-major row boxes");

// Stage k0 of problem p's tile at (m0, n0): n0 is the tile's first output column, up_row0
// (gated) the row of B holding its first up row. The maps are 3-D (column, row, problem).
__device__ __forceinline__ void load_stage(const TensorMap* map_a, const TensorMap* map_b,
                                           unsigned char* a, unsigned char* b, u64* full, int p,
                                           int m0, int n0, int up_row0, int k0) {
  mbar_arrive_expect_tx(full, A_TILE_BYTES + B_TILE_BYTES);
  if (A_K_MAJOR) {
    tma_load_3d(a, map_a, full, k0, m0, p);
  } else {
#pragma unroll
    for (int j = 0; j < BM / 64; ++j) {
      tma_load_3d(a + j * BOX_BYTES, map_a, full, m0 + 64 * j, k0, p);
    }
  }
  if (GATED) {
    tma_load_3d(b, map_b, full, k0, n0, p);
    tma_load_3d(b + B_TILE_BYTES / 2, map_b, full, k0, up_row0, p);
  } else if (B_K_MAJOR) {
    tma_load_3d(b, map_b, full, k0, n0, p);
  } else {
#pragma unroll
    for (int j = 0; j < BN / 64; ++j) {
      tma_load_3d(b + j * BOX_BYTES, map_b, full, n0 + 64 * j, k0, p);
    }
  }
}

// Consumer rows [row0, row0 + 64) of the tile, output columns from col0, through the tail;
// pair_stores: N is even and d, bias and residual are 4-byte aligned, so two neighbours go out as
// one 32-bit store.
__device__ __forceinline__ void store_rows(const float (&acc)[ACC], T* d, const GemmTailArgs<T>& tail,
                                           int M, int N, int row0, int col0, int pair_stores) {
  const int t = warpgroup_thread();
  constexpr int OUT = GATED ? ACC / 2 : ACC;
#pragma unroll
  for (int i = 0; i < OUT; i += 2) {
    const int r = row0 + acc_row(t, i);
    const int c = col0 + acc_col(t, i);
    if (r >= M || c >= N) continue;
    const float v0 = gemm_tail(tail, GATED_ACT, acc[i], GATED ? acc[(i + OUT) % ACC] : 0.0f, r, c, N);
    T* p = d + static_cast<i64>(r) * N + c;
    if (pair_stores) {
      const float v1 =
          gemm_tail(tail, GATED_ACT, acc[i + 1], GATED ? acc[(i + 1 + OUT) % ACC] : 0.0f, r, c + 1, N);
      *reinterpret_cast<u32*>(p) = pack2<T>(v0, v1);
    } else {
      p[0] = from_float<T>(v0);
      if (c + 1 < N) {
        p[1] = from_float<T>(
            gemm_tail(tail, GATED_ACT, acc[i + 1], GATED ? acc[(i + 1 + OUT) % ACC] : 0.0f, r, c + 1, N));
      }
    }
  }
}

// A consumer's partial tile in the workspace, laid out so that consecutive threads touch
// consecutive 16 bytes.
__device__ __forceinline__ F32x4* partial_slot(float* partials, int slot, int split, int splits) {
  return reinterpret_cast<F32x4*>(partials) +
         (static_cast<i64>(slot) * splits + split) * (ACC / 4) * kWarpgroupThreads +
         warpgroup_thread();
}

extern "C" __global__ void __launch_bounds__(THREADS, 1)
    gemm_sm90_ws_kernel(const __grid_constant__ TensorMap map_a,
                        const __grid_constant__ TensorMap map_b, T* d, int M, int N, int K,
                        int pair_stores, int splits, float* partials, int* counters, const T* bias,
                        const T* residual, int batch) {
  extern __shared__ unsigned char smem_raw[];
  __shared__ int last_split[CONSUMERS];
  // 128-byte swizzled tiles must start on 1024-byte boundaries.
  unsigned char* smem = smem_raw + ((1024 - (smem_u32(smem_raw) & 1023)) & 1023);
  unsigned char* a_tiles = smem;
  unsigned char* b_tiles = smem + STAGES * A_TILE_BYTES;
  u64* full = reinterpret_cast<u64*>(b_tiles + STAGES * B_TILE_BYTES);
  u64* empty = full + STAGES;

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbar_init(&full[s], 1);
      mbar_init(&empty[s], CONSUMERS);
    }
    mbar_fence_init();
    tma_prefetch_map(&map_a);
    tma_prefetch_map(&map_b);
  }
  __syncthreads();

  // Work unit -> (tile of the whole batch, split); tile -> (problem, tile of the problem).
  const GroupedTiles tiles(M, N, BM, OUT_BN, GROUP_M);
  const SplitK split_k{splits, ceil_div(K, BK)};
  const int units = batch * tiles.count() * splits;
  const int wg = warpgroup_index();

  if (wg == 0) {  // producer
    setmaxnreg_dec<40>();
    if (threadIdx.x == 0) {
      int stage = 0;
      u32 phase = 0;
      for (int u = blockIdx.x; u < units; u += gridDim.x) {
        int tile, split, tm, tn;
        split_k.unit(u, tile, split);
        const int p = tile / tiles.count();
        tiles.coords(tile % tiles.count(), tm, tn);
        for (int kt = split_k.begin(split); kt < split_k.end(split); ++kt) {
          mbar_wait(&empty[stage], phase ^ 1);  // a fresh barrier passes parity 1 at once
          load_stage(&map_a, &map_b, a_tiles + stage * A_TILE_BYTES, b_tiles + stage * B_TILE_BYTES,
                     &full[stage], p, tm * BM, tn * OUT_BN, N + tn * OUT_BN, kt * BK);
          if (++stage == STAGES) {
            stage = 0;
            phase ^= 1;
          }
        }
      }
    }
    return;
  }

  setmaxnreg_inc<232>();
  const int consumer = wg - 1;
  const int t = warpgroup_thread();
  float acc[ACC];
  int stage = 0;
  u32 phase = 0;
  for (int u = blockIdx.x; u < units; u += gridDim.x) {
    int tile, split, tm, tn;
    split_k.unit(u, tile, split);
    const int p = tile / tiles.count();
    tiles.coords(tile % tiles.count(), tm, tn);
#pragma unroll
    for (int i = 0; i < ACC; ++i) acc[i] = 0.0f;
    fence_accumulators(acc);
    int held = -1;  // the stage whose MMAs may still be running
    for (int kt = split_k.begin(split); kt < split_k.end(split); ++kt) {
      mbar_wait(&full[stage], phase);
      const unsigned char* a = a_tiles + stage * A_TILE_BYTES + consumer * BOX_BYTES;
      const unsigned char* b = b_tiles + stage * B_TILE_BYTES;
      wgmma_fence();
#pragma unroll
      for (int k16 = 0; k16 < BK / 16; ++k16) {
        const u64 da = A_K_MAJOR ? desc_k_major(a, k16) : desc_mn_major(a, k16, BOX_BYTES);
        const u64 db = B_K_MAJOR ? desc_k_major(b, k16) : desc_mn_major(b, k16, BOX_BYTES);
        WgmmaK16<T, BN>::template run<A_K_MAJOR ? 0 : 1, B_K_MAJOR ? 0 : 1>(acc, da, db, 1u);
      }
      wgmma_commit();
      wgmma_wait<1>();  // the previous stage's MMAs are done: hand that stage back
      if (held >= 0 && t == 0) mbar_arrive(&empty[held]);
      held = stage;
      if (++stage == STAGES) {
        stage = 0;
        phase ^= 1;
      }
    }
    wgmma_wait<0>();
    fence_accumulators(acc);
    if (held >= 0 && t == 0) mbar_arrive(&empty[held]);

    const int row0 = tm * BM + consumer * 64, col0 = tn * OUT_BN;
    const i64 problem_offset = static_cast<i64>(p) * M * N;
    T* const d_p = d + problem_offset;
    const GemmTailArgs<T> tail{bias, residual != nullptr ? residual + problem_offset : nullptr};
    if (splits == 1) {
      store_rows(acc, d_p, tail, M, N, row0, col0, pair_stores);
      continue;
    }
    const int slot = tile * CONSUMERS + consumer;
    F32x4* mine = partial_slot(partials, slot, split, splits);
#pragma unroll
    for (int q = 0; q < ACC / 4; ++q) {
      mine[q * kWarpgroupThreads] =
          F32x4{acc[4 * q], acc[4 * q + 1], acc[4 * q + 2], acc[4 * q + 3]};
    }
    // The last split of the tile to count itself in sums every partial, in split order (so the
    // result does not depend on which split finished last), and stores the tile. No split waits
    // for another, so nothing assumes the splits are resident at the same time.
    __threadfence();
    named_barrier_sync(1 + consumer, kWarpgroupThreads);
    if (t == 0) last_split[consumer] = atomicAdd(&counters[slot], 1) == splits - 1;
    named_barrier_sync(1 + consumer, kWarpgroupThreads);
    if (!last_split[consumer]) continue;
    __threadfence();
#pragma unroll
    for (int q = 0; q < ACC / 4; ++q) {
      F32x4 sum{0.0f, 0.0f, 0.0f, 0.0f};
      for (int s = 0; s < splits; ++s) {
        const F32x4 v =
            load_l2_f32x4(partial_slot(partials, slot, s, splits) + q * kWarpgroupThreads);
        sum.x += v.x;
        sum.y += v.y;
        sum.z += v.z;
        sum.w += v.w;
      }
      acc[4 * q] = sum.x;
      acc[4 * q + 1] = sum.y;
      acc[4 * q + 2] = sum.z;
      acc[4 * q + 3] = sum.w;
    }
    store_rows(acc, d_p, tail, M, N, row0, col0, pair_stores);
  }
}
