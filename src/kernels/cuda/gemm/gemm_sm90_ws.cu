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
// zeroed before the launch); the last to arrive sums the partials in split order and stores. With
// parallel_reduce (a cooperative launch, so every block is resident) each split instead waits for
// the others and sums and stores its own share of the tile's columns: one block reading every
// partial alone made the reduction a serial tail as long as half the main loop (docs/perf).
// With SPLIT_IN_CLUSTER the splits of a tile are instead the blocks of one cluster (splits ==
// the cluster size), and the partials meet in distributed shared memory (gemm_cluster_split.cuh);
// the first block stores the summed tile as an unsplit one (TMA stores where the host allows).
//
// Clusters, along M or along N. CLUSTER_M = 2: the two blocks of
// a cluster take the neighbouring tile rows 2i and 2i + 1 of one tile column, so they need the
// same B stage. Each loads half of it and multicasts that half to both, halving the L2 traffic B
// costs. CLUSTER_N = 2 or 4 (A K-major): the blocks take neighbouring tile columns of one tile
// row and share its A stage the same way, each loading 1 / CLUSTER_N of its rows: for a few
// tokens against a wide weight, narrow tiles otherwise re-read all of A for every tile column.
// A stage is free only when the consumers of every block are done with it (each writes into the
// others' copies), so every consumer hands it back to every block's `empty` barrier; a producer
// waits out the last hand-backs before its block exits, since the peers' arrivals land in its
// shared memory. A block whose tile lies past M or N still runs it (TMA reads zeros, nothing is
// stored), so all blocks walk the same stages. Under split-K the blocks of a cluster take the same
// split of their tiles (a unit is a cluster's tiles times a split), so they need the same stages;
// each block's tile has its own workspace slot, and the host reduces clustered splits serially
// only (a cooperative launch of clusters was not tried).
//
// The epilogue (whole tiles, 16-byte aligned output rows, and no residual unless the tile has two
// consumers; gemm_store_tma.cuh) hands the tile to TMA stores through shared memory and goes on
// to the next tile without waiting for them; a residual's rows are asked into the L2 a few stages
// before the tile's last MMAs. Otherwise (split-K, a residual of a one-consumer tile, unaligned
// rows) each warp stages its rows through shared memory and stores them itself (store_rows). Either
// applies the tail (gemm_tail.cuh). Gated (GATED_ACT >= 0, B K-major): B holds 2N rows, gate then
// up; a tile's B stage is BN / 2 gate rows over the BN / 2 matching up rows, so each thread holds a
// gate sum and its up sum (ACC / 2 registers apart) and the tile covers BN / 2 output columns.
//
// A weight stream (stream_weight, set by the host when all reads of a weight stage come from
// blocks running together and none later) loads the weight evict-first: its lines then replace
// its own earlier lines rather than what the L2 held before the call (activations, often dirty,
// whose write-back the stream would otherwise pay).
//
// Swapped operands (SWAP_AB, for a few tokens: gemm_swap_cuda.cpp): A is the weight [out_cols,
// K] and B the activations [tokens, K], so wgmma's 64-row M runs over output columns and its N
// over BN (8 to 128) tokens; the kernel's M is the output's column count and its N the token
// count, and the epilogue stores the transpose (gemm_store_swapped.cuh). Gated, A holds 2M rows
// (gate, then up) and a tile's two 64-row boxes are 64 gate rows and their 64 up rows: the first
// consumer sums the gate, the second the up rows, and they meet in shared memory. No clusters,
// no TMA stores.
//
// A stage is BK deep: one 128-byte swizzle row of K (64 elements) a row, or with BK = 128 (both
// operands K-major, not gated, not swapped, clustered along N at most) two, each its own box, so
// that narrow tiles hand over half as many stages for the same bytes.
//
// Prelude: T (bf16 or f16), BM (64 or 128), BN (32..256; under 64 only with B K-major), BK (64,
// or 128 as above),
// STAGES, GROUP_M, A_K_MAJOR (A stored [M, K]; else [K, M]), B_K_MAJOR (B stored [N, K]; else
// [K, N]), GATED_ACT (-1, or the activation code of device/activation.cuh), CLUSTER_M (1, or 2
// with BN a multiple of 128), CLUSTER_N (1, 2 or 4; not with CLUSTER_M), EPILOGUE_BYTES (shared
// memory for each consumer's epilogue), SWAP_AB (above), SPLIT_IN_CLUSTER (swapped, or plain
// tiles that are neither gated nor clustered otherwise: split-K within a cluster, above).
//
// map_a_tail: A's map with boxes of a_tail_rows rows, M % BM rounded up to a multiple of 8, for
// the tile over A's last rows; a_tail_rows = 0 where M % BM == 0 or A_TAIL_BOXES is off (below).
// map_b_tail and b_tail_rows: the same for B's last rows (N % BN), with B_TAIL_BOXES.
// parallel_reduce: split-K reduces in parallel (above); the host sets it only on a cooperative
// launch of ungated, unswapped tiles (PARALLEL_REDUCE_TILES).
#include "device/cache_policy.cuh"
#include "device/sm90/cluster.cuh"
#include "device/sm90/mbarrier.cuh"
#include "device/sm90/scheduler.cuh"
#include "device/sm90/tma.cuh"
#include "device/sm90/warpgroup.cuh"
#include "device/sm90/wgmma.cuh"
#include "device/vec.cuh"
#include "gemm/gemm_cluster_split.cuh"
#include "gemm/gemm_store_swapped.cuh"
#include "gemm/gemm_store_tma.cuh"
#include "gemm/gemm_tail.cuh"

using namespace tileops::dev;
using namespace tileops::dev::sm90;

constexpr int CONSUMERS = BM / 64;
constexpr int THREADS = kWarpgroupThreads * (CONSUMERS + 1);
constexpr int ELEM = sizeof(T);
constexpr int A_TILE_BYTES = BM * BK * ELEM;
constexpr int B_TILE_BYTES = BN * BK * ELEM;
constexpr int BOX_K = 128 / ELEM;             // K elements of a 128-byte swizzle row
constexpr int KBOXES = BK / BOX_K;            // K-major boxes a stage of each operand holds
constexpr int BOX_BYTES = 64 * BOX_K * ELEM;  // 64 rows (K-major) or 64 MN elements (MN-major)
constexpr int ACC = BN / 2;
constexpr bool GATED = GATED_ACT >= 0;
constexpr bool GATED_SWAPPED = GATED && SWAP_AB;
constexpr int OUT_BM = GATED_SWAPPED ? BM / 2 : BM;      // the kernel's rows a tile covers
constexpr int OUT_BN = GATED && !SWAP_AB ? BN / 2 : BN;  // the kernel's columns a tile covers
static_assert(BK % BOX_K == 0 && (KBOXES == 1 || KBOXES == 2),
              "a stage is one or two 128-byte swizzle rows of K deep");
static_assert(BM == 64 || BM == 128, "one or two consumer warpgroups");
static_assert(BN % 64 == 0 || (B_K_MAJOR && BN % 32 == 0) || (SWAP_AB && BN % 8 == 0),
              "B tiles are whole 64-element boxes, or K-major rows in 32s (8s swapped)");
static_assert(!GATED || (B_K_MAJOR && BN % 16 == 0) || (SWAP_AB && BM == 128),
              "gated tiles stack two K-major row boxes (of B, or swapped of A)");
static_assert(!SWAP_AB || (A_K_MAJOR && B_K_MAJOR && CLUSTER_M == 1 && CLUSTER_N == 1),
              "swapped operands: a linear layer's layout, no clusters");
constexpr int CLUSTER = CLUSTER_M * CLUSTER_N;
constexpr bool CLUSTERED = CLUSTER > 1;
static_assert(KBOXES == 1 || (A_K_MAJOR && B_K_MAJOR && !GATED && !SWAP_AB && CLUSTER_M == 1),
              "two-box stages: plain K-major tiles, clustered along N at most");
constexpr bool MULTICAST_A = CLUSTER_N > 1;
constexpr bool MULTICAST_B = CLUSTER_M > 1;
static_assert(CLUSTER_M == 1 || (CLUSTER_M == 2 && BN % 128 == 0),
              "a pair of blocks splits B into two halves of whole 64-element boxes");
static_assert(CLUSTER_N == 1 || ((CLUSTER_N == 2 || CLUSTER_N == 4) && CLUSTER_M == 1 &&
                                 A_K_MAJOR && (BM / CLUSTER_N) % 8 == 0),
              "blocks along N share A in K-major slices of whole 8-row swizzle atoms");
static_assert(!SPLIT_IN_CLUSTER || ((SWAP_AB || (!GATED && !CLUSTERED)) &&
                                    ACC * kWarpgroupThreads * 4 <= EPILOGUE_BYTES),
              "split-K in a cluster: swapped or plain tiles, a consumer's partial in its epilogue "
              "buffer");
// Whether the last row of tiles may load A through map_a_tail: K-major A loaded by each block
// alone, one box of the tile's rows (not the swapped gate and up boxes); and the last column of
// tiles B through map_b_tail: K-major B loaded by each block alone, not the tile kernel's gate
// and up boxes. The host passes a_tail_rows = 0 and b_tail_rows = 0 otherwise.
constexpr bool A_TAIL_BOXES = A_K_MAJOR && !MULTICAST_A && !GATED_SWAPPED;
constexpr bool B_TAIL_BOXES = B_K_MAJOR && !MULTICAST_B && (SWAP_AB || !GATED);
constexpr u16 kEveryBlock = static_cast<u16>((1u << CLUSTER) - 1);  // multicast to the cluster
// Whether split-K may reduce in parallel (parallel_reduce): tiles whose 16-byte accumulator pieces
// are whole groups of 8 output columns, so a split can store a share of the columns alone.
constexpr bool PARALLEL_REDUCE_TILES = !GATED && !SWAP_AB;

// One box of a 3-D map, with the evict-first policy when given one (a streamed weight).
__device__ __forceinline__ void load_box(void* dst, const TensorMap* map, u64* full, int c0, int c1,
                                         int p, const u64* evict_first) {
  if (evict_first != nullptr) {
    tma_load_3d(dst, map, full, c0, c1, p, *evict_first);
  } else {
    tma_load_3d(dst, map, full, c0, c1, p);
  }
}
// A box of B; clustered along M, multicast to both blocks.
__device__ __forceinline__ void load_b_box(unsigned char* dst, const TensorMap* map_b, u64* full,
                                           int c0, int c1, int p, const u64* evict_first) {
  if (!MULTICAST_B) {
    load_box(dst, map_b, full, c0, c1, p, evict_first);
  } else if (evict_first != nullptr) {
    tma_load_3d_multicast(dst, map_b, full, c0, c1, p, kEveryBlock, *evict_first);
  } else {
    tma_load_3d_multicast(dst, map_b, full, c0, c1, p, kEveryBlock);
  }
}

// Stage k0 of problem p's tile at (m0, n0): n0 is the tile's first output column, up_row0
// (gated) the row of B holding its first up row. The maps are 3-D (column, row, problem).
// Clustered along M, block `rank` loads half of the B stage (the gate or the up rows when gated)
// and multicasts it; the K-major B map's box is then half the tile's rows. Clustered along N, it
// loads rows [rank, rank + 1) * BM / CLUSTER_N of each K box of the A stage (the A map's box)
// and multicasts them.
__device__ __forceinline__ void load_stage(const TensorMap* map_a, const TensorMap* map_b,
                                           unsigned char* a, unsigned char* b, u64* full, int p,
                                           int m0, int n0, int up_row0, int k0, u32 rank,
                                           const u64* weight_evict_first, unsigned a_bytes,
                                           unsigned b_bytes) {
  mbar_arrive_expect_tx(full, a_bytes + b_bytes);
  if (SWAP_AB) {  // up_row0: the A row of the tile's first up row
    load_box(a, map_a, full, k0, m0, p, weight_evict_first);
    if (GATED) load_box(a + BOX_BYTES, map_a, full, k0, up_row0, p, weight_evict_first);
    load_box(b, map_b, full, k0, n0, p, nullptr);
    return;
  }
  const u64* b_evict_first = weight_evict_first;
  if (MULTICAST_A) {
    constexpr int kRows = BM / CLUSTER_N;
    constexpr int kBoxBytes = A_TILE_BYTES / KBOXES;
#pragma unroll
    for (int kb = 0; kb < KBOXES; ++kb) {
      tma_load_3d_multicast(a + kb * kBoxBytes + rank * (kBoxBytes / CLUSTER_N), map_a, full,
                            k0 + kb * BOX_K, m0 + static_cast<int>(rank) * kRows, p, kEveryBlock);
    }
  } else if (A_K_MAJOR) {
#pragma unroll
    for (int kb = 0; kb < KBOXES; ++kb) {
      load_box(a + kb * (A_TILE_BYTES / KBOXES), map_a, full, k0 + kb * BOX_K, m0, p, nullptr);
    }
  } else {
#pragma unroll
    for (int j = 0; j < BM / 64; ++j) {
      load_box(a + j * BOX_BYTES, map_a, full, m0 + 64 * j, k0, p, nullptr);
    }
  }
  const u32 b_rank = MULTICAST_B ? rank : 0;  // this block's share of B
  if (GATED) {
    if (!MULTICAST_B || b_rank == 0) load_b_box(b, map_b, full, k0, n0, p, b_evict_first);
    if (!MULTICAST_B || b_rank == 1)
      load_b_box(b + B_TILE_BYTES / 2, map_b, full, k0, up_row0, p, b_evict_first);
  } else if (B_K_MAJOR) {
#pragma unroll
    for (int kb = 0; kb < KBOXES; ++kb) {  // two boxes only unclustered (b_rank 0)
      load_b_box(b + kb * (B_TILE_BYTES / KBOXES) + b_rank * (B_TILE_BYTES / CLUSTER_M), map_b,
                 full, k0 + kb * BOX_K, n0 + static_cast<int>(b_rank) * (BN / CLUSTER_M), p,
                 b_evict_first);
    }
  } else {
    constexpr int kBoxes = BN / 64 / CLUSTER_M;  // of this block's share
#pragma unroll
    for (int i = 0; i < kBoxes; ++i) {
      const int j = static_cast<int>(b_rank) * kBoxes + i;
      load_b_box(b + j * BOX_BYTES, map_b, full, n0 + 64 * j, k0, p, b_evict_first);
    }
  }
}

// Hands a stage back: to this block's producer, or clustered to every block's producer.
__device__ __forceinline__ void release_stage(u64* empty) {
  if (CLUSTERED) {
#pragma unroll
    for (u32 r = 0; r < CLUSTER; ++r) mbar_arrive_peer(empty, r);
  } else {
    mbar_arrive(empty);
  }
}

// The epilogue stages each warp's 16 rows through shared memory, CHUNK output columns at a time,
// so that global memory sees whole row segments: stores (and residual loads) of 16 bytes a lane,
// four lanes a row, instead of the fragment layout's 4-byte pieces of eight rows.
constexpr int CHUNK = OUT_BN < 32 ? OUT_BN : 32;  // swapped tiles store elsewhere
constexpr int STAGE_LD = CHUNK + 8;  // floats a staged row; the padding spreads rows over banks
constexpr int WARP_STAGE_FLOATS = 16 * STAGE_LD;
// Shared memory for one consumer's epilogue: two TMA-store slab buffers, or its warps' staging.
// EPILOGUE_BYTES (the prelude's, from the host's shared-memory budget) must hold either.
constexpr bool TMA_STORE_TILES = !SWAP_AB && OUT_BN % kStoreSlabCols == 0;
// Whether the TMA-store epilogue adds a residual (the host passes tma_store with a residual only
// then): two-consumer tiles. A one-consumer tile's epilogue spilled with the residual's registers.
constexpr bool TMA_STORE_RESIDUAL = TMA_STORE_TILES && CONSUMERS == 2;
// Stages before a tile's last whose MMAs run while the residual's rows come into the L2.
constexpr int RESIDUAL_PREFETCH_STAGES = 4;
static_assert(EPILOGUE_BYTES >= kStoreBuffers * kStoreSlabBytes &&
                  EPILOGUE_BYTES >= 4 * WARP_STAGE_FLOATS * 4 && EPILOGUE_BYTES % 1024 == 0,
              "a consumer's epilogue buffers: two swizzled slabs or its warps' staging");
// Output accumulator i (< ACC / 2 when gated): the sum, or act(gate) * up when gated.
__device__ __forceinline__ float out_value(const float (&acc)[ACC], int i) {
  return GATED ? activate(GATED_ACT, acc[i]) * acc[(i + ACC / 2) % ACC] : acc[i];
}

// Eight consecutive elements d[row, col..col+8) from fp32 values v, through the tail. vec: the 8
// are in bounds and d, bias and residual allow 16-byte accesses there.
__device__ __forceinline__ void store_eight(float (&v)[8], T* d, const GemmTailArgs<T>& tail, int N,
                                            int row, int col, bool vec) {
  const i64 off = static_cast<i64>(row) * N + col;
  if (vec) {
    if (tail.bias != nullptr) {
      const U32x4 b = *reinterpret_cast<const U32x4*>(tail.bias + col);
      const u32 w[4] = {b.x, b.y, b.z, b.w};
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        v[2 * e] += unpack_lo<T>(w[e]);
        v[2 * e + 1] += unpack_hi<T>(w[e]);
      }
    }
    if (tail.residual != nullptr) {
      const U32x4 r = *reinterpret_cast<const U32x4*>(tail.residual + off);
      const u32 w[4] = {r.x, r.y, r.z, r.w};
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        v[2 * e] += unpack_lo<T>(w[e]);
        v[2 * e + 1] += unpack_hi<T>(w[e]);
      }
    }
    *reinterpret_cast<U32x4*>(d + off) = U32x4{pack2<T>(v[0], v[1]), pack2<T>(v[2], v[3]),
                                               pack2<T>(v[4], v[5]), pack2<T>(v[6], v[7])};
    return;
  }
#pragma unroll
  for (int e = 0; e < 8; ++e) {
    if (col + e >= N) break;
    d[off + e] = from_float<T>(gemm_tail(tail, -1, v[e], 0.0f, row, col + e, N));
  }
}

// One chunk of a warp's 16 rows from its stage to global memory, columns from col0 (the chunk's
// first) through the tail: a lane takes 8 columns of a row, four lanes a row, eight rows a pass.
// Only the chunk's 8-column groups [group_lo, group_hi) are stored. vec_stores: N % 8 == 0 and d,
// bias and residual are 16-byte aligned.
__device__ __forceinline__ void store_stage(const float* stage, T* d, const GemmTailArgs<T>& tail,
                                            int M, int N, int warp_row0, int col0, int vec_stores,
                                            int group_lo = 0, int group_hi = CHUNK / 8) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int pass = 0; pass < 2; ++pass) {
    const int r = 8 * pass + lane / 4, cc = 8 * (lane % 4);
    const int row = warp_row0 + r, col = col0 + cc;
    if (row < M && col < N && lane % 4 >= group_lo && lane % 4 < group_hi) {
      const float* src = stage + r * STAGE_LD + cc;
      float v[8];
#pragma unroll
      for (int e = 0; e < 8; ++e) v[e] = src[e];
      store_eight(v, d, tail, N, row, col, vec_stores && col + 8 <= N);
    }
  }
}

// Consumer rows [row0, row0 + 64) of the tile, output columns from col0, through the tail; stage
// is this warp's WARP_STAGE_FLOATS of shared memory.
__device__ __forceinline__ void store_rows(const float (&acc)[ACC], float* stage, T* d,
                                           const GemmTailArgs<T>& tail, int M, int N, int row0,
                                           int col0, int vec_stores) {
  const int lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;
  const int warp_row0 = row0 + 16 * ((threadIdx.x / 32) % 4);
#pragma unroll
  for (int c0 = 0; c0 < OUT_BN; c0 += CHUNK) {
    // Fragment -> stage: accumulator i holds row g + 8 * ((i / 2) % 2), column 8 * (i / 4) +
    // 2 * t + i % 2 (acc_row / acc_col).
#pragma unroll
    for (int j = 0; j < CHUNK / 8; ++j) {
      const int i = 4 * (c0 / 8 + j);
      float* lo = stage + g * STAGE_LD + 8 * j + 2 * t;
      float* hi = lo + 8 * STAGE_LD;
      lo[0] = out_value(acc, i);
      lo[1] = out_value(acc, i + 1);
      hi[0] = out_value(acc, i + 2);
      hi[1] = out_value(acc, i + 3);
    }
    __syncwarp();
    store_stage(stage, d, tail, M, N, warp_row0, col0 + c0, vec_stores);
    __syncwarp();  // the next chunk rewrites the stage
  }
}

constexpr u32 kPairBarrier = 3;  // both consumers (1 and 2 are each consumer's own)

// Swapped operands: the consumer's tile through store_swapped; gated, the up consumer first hands
// its sums to the gate consumer.
__device__ __forceinline__ void store_swapped_tile(const float (&acc)[ACC], int consumer,
                                                   float* exchange, T* d,
                                                   const GemmTailArgs<T>& tail, int M, int N,
                                                   int row0, int col0) {
  if constexpr (GATED_SWAPPED) {
    if (consumer == 1) hand_over_up(acc, exchange);
    named_barrier_sync(kPairBarrier, 2 * kWarpgroupThreads);
    if (consumer == 0) store_swapped<T, ACC>(acc, exchange, GATED_ACT, d, tail, M, N, row0, col0);
    named_barrier_sync(kPairBarrier, 2 * kWarpgroupThreads);  // the next tile rewrites it
  } else {
    store_swapped<T, ACC>(acc, nullptr, -1, d, tail, M, N, row0, col0);
  }
}

constexpr int REDUCE_CHUNK = ACC / 4 < 8 ? ACC / 4 : 8;  // 16-byte groups of a partial at once
static_assert((ACC / 4) % REDUCE_CHUNK == 0, "whole chunks of a consumer's partial");
// 16-byte partial loads a thread keeps in flight in the reduction, a chunk of several splits at
// once: the reduction is a latency-bound L2 read (splits x 32 KB of 64x128 tiles by one SM in the
// serial form) unless many loads are out.
// As many as ptxas keeps in registers without spilling (nvcc -Xptxas -v): 24 under the 232
// registers of a two-warpgroup block, 16 under the 168 of a three-warpgroup one, 8 beside the 128
// accumulators of 256-column tiles (16 spilled 32 bytes at 64x256, 24 spilled 9.8 KB).
constexpr int REDUCE_LOADS = ACC >= 128 ? 8 : CONSUMERS == 1 ? 24 : 16;
constexpr int PIECES = ACC / 4;  // 16-byte pieces of a thread's accumulators

// A consumer's partial tile in the workspace, laid out so that consecutive threads touch
// consecutive 16 bytes.
__device__ __forceinline__ F32x4* partial_slot(float* partials, int slot, int split, int splits) {
  return reinterpret_cast<F32x4*>(partials) +
         (static_cast<i64>(slot) * splits + split) * PIECES * kWarpgroupThreads +
         warpgroup_thread();
}

// Sums the tile's partials over every split into acc, from zero in split order, so that the
// result does not depend on which split finished last. acc holds split `mine`'s partial: it is
// added from the registers in its place in the order, so only the other splits' partials are
// loaded (not beside the 128 accumulators of 256-column tiles, where ptxas then spilled).
// REDUCE_CHUNK pieces (16 bytes of a thread's accumulators) of several splits are loaded before any
// is summed: a loop that waited on each load in turn spent most of a split-K call on L2 round trips
// (docs/perf); the four splits of a 64x64 tile's serial reduction take one round trip.
__device__ __forceinline__ void add_piece(F32x4& sum, const F32x4& v) {
  sum.x += v.x;
  sum.y += v.y;
  sum.z += v.z;
  sum.w += v.w;
}
__device__ __forceinline__ void sum_partials(float (&acc)[ACC], float* partials, int slot,
                                             int splits, int mine) {
  constexpr int kSplitsAtOnce = REDUCE_LOADS / REDUCE_CHUNK;
  constexpr bool kOwnFromRegisters = ACC < 128;
  const int skipped = kOwnFromRegisters ? mine : splits;  // the split not loaded, if any
  const int others = kOwnFromRegisters ? splits - 1 : splits;
  // The o-th split loaded (o < others): the splits before the skipped one, then those after it.
  const auto other_split = [skipped](int o) { return o < skipped ? o : o + 1; };
#pragma unroll
  for (int q0 = 0; q0 < PIECES; q0 += REDUCE_CHUNK) {
    // Mine: acc's pieces of this chunk, which are rewritten only once it is summed.
    const auto own = [&acc, q0](int j) {
      return F32x4{acc[4 * (q0 + j)], acc[4 * (q0 + j) + 1], acc[4 * (q0 + j) + 2],
                   acc[4 * (q0 + j) + 3]};
    };
    F32x4 sum[REDUCE_CHUNK];
#pragma unroll
    for (int j = 0; j < REDUCE_CHUNK; ++j) sum[j] = F32x4{0.0f, 0.0f, 0.0f, 0.0f};
    for (int o0 = 0; o0 < others; o0 += kSplitsAtOnce) {
      F32x4 v[kSplitsAtOnce][REDUCE_CHUNK];
#pragma unroll
      for (int a = 0; a < kSplitsAtOnce; ++a) {
        if (o0 + a >= others) break;
        const F32x4* theirs =
            partial_slot(partials, slot, other_split(o0 + a), splits) + q0 * kWarpgroupThreads;
#pragma unroll
        for (int j = 0; j < REDUCE_CHUNK; ++j) {
          v[a][j] = load_l2_f32x4(theirs + j * kWarpgroupThreads);
        }
      }
#pragma unroll
      for (int a = 0; a < kSplitsAtOnce; ++a) {
        if (o0 + a >= others) break;
        if (o0 + a == skipped) {  // mine comes before the first split after it
#pragma unroll
          for (int j = 0; j < REDUCE_CHUNK; ++j) add_piece(sum[j], own(j));
        }
#pragma unroll
        for (int j = 0; j < REDUCE_CHUNK; ++j) add_piece(sum[j], v[a][j]);
      }
    }
    if (kOwnFromRegisters && mine == others) {  // the last split
#pragma unroll
      for (int j = 0; j < REDUCE_CHUNK; ++j) add_piece(sum[j], own(j));
    }
#pragma unroll
    for (int j = 0; j < REDUCE_CHUNK; ++j) {
      acc[4 * (q0 + j)] = sum[j].x;
      acc[4 * (q0 + j) + 1] = sum[j].y;
      acc[4 * (q0 + j) + 2] = sum[j].z;
      acc[4 * (q0 + j) + 3] = sum[j].w;
    }
  }
}

// Loads of partial pieces a thread keeps in flight in the parallel reduction, which holds no
// accumulators (its sums go to shared memory).
constexpr int SHARE_LOADS = 16;

// The parallel reduction's part of one split (ungated, unswapped tiles): the pieces [lo, hi) of
// every thread of the consumer, an even share of the tile's PIECES (none for some splits when
// there are more splits than pieces). Piece q of a thread holds its accumulators 4q to 4q + 3:
// rows g and g + 8 of its warp's 16, columns 8q + 2t and 8q + 2t + 1, so a share is whole groups
// of 8 output columns. Each is summed over every split from zero in split order (the sums
// sum_partials makes, bit for bit) into the warp's stage, a chunk of CHUNK columns at a time, and
// the chunk's groups of the share are stored.
__device__ __forceinline__ void reduce_share(float* partials, int slot, int split, int splits,
                                             float* stage, T* d, const GemmTailArgs<T>& tail, int M,
                                             int N, int row0, int col0, int vec_stores) {
  const int lo = split * PIECES / splits, hi = (split + 1) * PIECES / splits;
  if (lo == hi) return;
  const int lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;
  const int warp_row0 = row0 + 16 * ((threadIdx.x / 32) % 4);
  constexpr int kChunkPieces = CHUNK / 8;
  // Split s's piece q of this thread: base[(s * PIECES + q) * kWarpgroupThreads].
  const F32x4* base = partial_slot(partials, slot, 0, splits);
  // Pieces a round reads, every split of each at once; one piece over several rounds of splits
  // where there are more splits than SHARE_LOADS.
  const int per_round = splits <= SHARE_LOADS ? SHARE_LOADS / splits : 1;
  for (int c = lo / kChunkPieces; c * kChunkPieces < hi; ++c) {
    const int first = max(lo, c * kChunkPieces), last = min(hi, (c + 1) * kChunkPieces);
    for (int q0 = first; q0 < last; q0 += per_round) {
      const int q_end = min(last, q0 + per_round);
      F32x4 sum{0.0f, 0.0f, 0.0f, 0.0f};
      for (int s0 = 0; s0 < splits; s0 += SHARE_LOADS) {
        const int s_end = min(splits, s0 + SHARE_LOADS);
        // Load i: piece q of split s, walking the splits [s0, s_end) of each piece in turn.
        F32x4 v[SHARE_LOADS];
        int q = q0, s = s0;
#pragma unroll
        for (int i = 0; i < SHARE_LOADS; ++i) {
          if (q < q_end) v[i] = load_l2_f32x4(base + (s * PIECES + q) * kWarpgroupThreads);
          if (++s == s_end) {
            s = s0;
            ++q;
          }
        }
        q = q0;
        s = s0;
#pragma unroll
        for (int i = 0; i < SHARE_LOADS; ++i) {
          if (q < q_end) {
            sum.x += v[i].x;
            sum.y += v[i].y;
            sum.z += v[i].z;
            sum.w += v[i].w;
            if (s == splits - 1) {  // piece q summed: into the stage where store_rows puts it
              float* at = stage + g * STAGE_LD + 8 * (q - c * kChunkPieces) + 2 * t;
              at[0] = sum.x;
              at[1] = sum.y;
              at[8 * STAGE_LD] = sum.z;
              at[8 * STAGE_LD + 1] = sum.w;
              sum = F32x4{0.0f, 0.0f, 0.0f, 0.0f};
            }
          }
          if (++s == s_end) {
            s = s0;
            ++q;
          }
        }
      }
    }
    __syncwarp();
    store_stage(stage, d, tail, M, N, warp_row0, col0 + c * CHUNK, vec_stores,
                first - c * kChunkPieces, last - c * kChunkPieces);
    __syncwarp();  // the next chunk rewrites the stage
  }
}

// A consumer's workspace slot (counter and partials) under split-K: its block's tile of the
// cluster's unit `tile` (of the whole batch).
__device__ __forceinline__ int split_slot(int tile, u32 rank, int consumer) {
  return (tile * CLUSTER + static_cast<int>(rank)) * CONSUMERS + consumer;
}

// Waits until the tile's counter reads `splits`: every split has published its partial.
__device__ __forceinline__ void await_splits(const int* counter, int splits) {
  int seen;
  do {
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(seen) : "l"(counter) : "memory");
  } while (seen < splits);
}

extern "C" __global__ void __launch_bounds__(THREADS, 1) gemm_sm90_ws_kernel(
    const __grid_constant__ TensorMap map_a, const __grid_constant__ TensorMap map_b,
    const __grid_constant__ TensorMap map_d, T* d, int M, int N, int K, int vec_stores,
    int tma_store, int splits, float* partials, int* counters, const T* bias, const T* residual,
    int batch, int stream_weight, const __grid_constant__ TensorMap map_a_tail, int a_tail_rows,
    const __grid_constant__ TensorMap map_b_tail, int b_tail_rows, int parallel_reduce) {
  extern __shared__ unsigned char smem_raw[];
  __shared__ int last_split[CONSUMERS];
  // 128-byte swizzled tiles must start on 1024-byte boundaries.
  unsigned char* smem = smem_raw + ((1024 - (smem_u32(smem_raw) & 1023)) & 1023);
  unsigned char* a_tiles = smem;
  unsigned char* b_tiles = smem + STAGES * A_TILE_BYTES;
  // The epilogue's buffers (1024-byte aligned, as the swizzled slabs need), then the barriers.
  unsigned char* epilogue_smem = b_tiles + STAGES * B_TILE_BYTES;
  u64* full = reinterpret_cast<u64*>(epilogue_smem + CONSUMERS * EPILOGUE_BYTES);
  u64* empty = full + STAGES;

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbar_init(&full[s], 1);
      mbar_init(&empty[s], CONSUMERS * CLUSTER);
    }
    mbar_fence_init();
    tma_prefetch_map(&map_a);
    tma_prefetch_map(&map_b);
    if (tma_store) tma_prefetch_map(&map_d);
    if (a_tail_rows > 0) tma_prefetch_map(&map_a_tail);
    if (b_tail_rows > 0) tma_prefetch_map(&map_b_tail);
  }
  // Clustered, the peers' barriers must be initialised before this block multicasts or arrives.
  if (CLUSTERED || SPLIT_IN_CLUSTER) {
    cluster_sync();
  } else {
    __syncthreads();
  }

  // Work unit -> (tile of the whole batch, split); tile -> (problem, tile of the problem). A
  // cluster walks tiles of CLUSTER_M tile rows by CLUSTER_N tile columns; its blocks take one
  // each.
  const GroupedTiles tiles(M, N, OUT_BM * CLUSTER_M, OUT_BN * CLUSTER_N, GROUP_M / CLUSTER_M);
  const SplitK split_k{splits, ceil_div(K, BK)};
  const int units = batch * tiles.count() * splits;
  const u32 rank = CLUSTERED ? cluster_rank() : 0;
  const int rank_m = MULTICAST_B ? static_cast<int>(rank) : 0;
  const int rank_n = MULTICAST_A ? static_cast<int>(rank) : 0;
  const int first_unit = blockIdx.x / CLUSTER, unit_stride = gridDim.x / CLUSTER;
  const int wg = warpgroup_index();

  if (wg == 0) {  // producer
    setmaxnreg_dec<40>();
    if (threadIdx.x == 0) {
      const u64 evict_first = l2_policy(kL2EvictFirst);
      const u64* weight_evict_first = stream_weight ? &evict_first : nullptr;
      int stage = 0;
      u32 phase = 0;
      // Split in a cluster, a tile's exchange needs this thread at its two cluster barriers. It
      // joins them late, once the ring is full of the next tiles' stages, so that a cluster
      // walking several tiles keeps loading while its consumers exchange: the load STAGES after
      // a tile's last waits for a stage its consumers free only past that tile's exchange, and
      // every earlier one for a stage they free before it. A block's split, and so the loads of
      // each of its tiles, is the same throughout the walk (unit_stride is a multiple of splits).
      const bool exchanges = SPLIT_IN_CLUSTER && splits > 1;
      const int loads_per_tile =
          exchanges ? split_k.end(first_unit % splits) - split_k.begin(first_unit % splits) : 0;
      int issued = 0, walked = 0, exchanged = 0;
      for (int u = first_unit; u < units; u += unit_stride) {
        int tile, split, tm, tn;
        split_k.unit(u, tile, split);
        const int p = tile / tiles.count();
        tiles.coords(tile % tiles.count(), tm, tn);
        const int m0 = (tm * CLUSTER_M + rank_m) * OUT_BM;
        const int n0 = (tn * CLUSTER_N + rank_n) * OUT_BN;
        const int up_row0 = SWAP_AB ? M + m0 : N + n0;
        // The tile holding the last rows of A loads only those (a_tail_rows of them, rounded up
        // to whole swizzle atoms), and the tile holding B's last rows only those: on the H200 a
        // box whose rows run past M cost up to 1.7x the kernel's time at m = 65
        // (docs/perf/h200-mid-m-swap-2026-12-04). The rows of the tile past the box keep stale
        // shared memory; they make only output rows (columns) past M (N), never stored.
        const bool a_tail = A_TAIL_BOXES && a_tail_rows > 0 && m0 < M && m0 + BM > M;
        const bool b_tail = B_TAIL_BOXES && b_tail_rows > 0 && n0 < N && n0 + BN > N;
        const TensorMap* const map_a_tile = a_tail ? &map_a_tail : &map_a;
        const TensorMap* const map_b_tile = b_tail ? &map_b_tail : &map_b;
        const unsigned a_bytes =
            a_tail ? static_cast<unsigned>(a_tail_rows * BK * ELEM) : A_TILE_BYTES;
        const unsigned b_bytes =
            b_tail ? static_cast<unsigned>(b_tail_rows * BK * ELEM) : B_TILE_BYTES;
        for (int kt = split_k.begin(split); kt < split_k.end(split); ++kt) {
          while (exchanges && loads_per_tile * (exchanged + 1) + STAGES <= issued) {
            split_tile_barriers();
            ++exchanged;
          }
          mbar_wait(&empty[stage], phase ^ 1);  // a fresh barrier passes parity 1 at once
          load_stage(map_a_tile, map_b_tile, a_tiles + stage * A_TILE_BYTES,
                     b_tiles + stage * B_TILE_BYTES, &full[stage], p, m0, n0, up_row0, kt * BK,
                     rank, weight_evict_first, a_bytes, b_bytes);
          ++issued;
          if (++stage == STAGES) {
            stage = 0;
            phase ^= 1;
          }
        }
        ++walked;
      }
      for (; exchanges && exchanged < walked; ++exchanged) split_tile_barriers();
      // The peers' consumers arrive on this block's `empty` barriers: wait for the last hand-back
      // of every stage, so that none lands after this block has exited.
      if (CLUSTERED) {
        for (int s = 0; s < STAGES; ++s) {
          mbar_wait(&empty[stage], phase ^ 1);
          if (++stage == STAGES) {
            stage = 0;
            phase ^= 1;
          }
        }
      }
    } else if (SPLIT_IN_CLUSTER && splits > 1) {
      for (int u = first_unit; u < units; u += unit_stride) split_tile_barriers();
    }
    return;
  }

  setmaxnreg_inc<232>();
  const int consumer = wg - 1;
  const int t = warpgroup_thread();
  unsigned char* const epilogue_mine = epilogue_smem + consumer * EPILOGUE_BYTES;
  // Gated and swapped, the up consumer's sums reach the gate consumer through its own region.
  float* const exchange =
      reinterpret_cast<float*>(epilogue_smem + (CONSUMERS - 1) * EPILOGUE_BYTES);
  float* stage_of_warp = reinterpret_cast<float*>(epilogue_mine) + (t / 32) * WARP_STAGE_FLOATS;
  u32 slabs_stored = 0;
  const ClusterSplitK<ACC> cluster_split{reinterpret_cast<float*>(epilogue_mine),
                                         SPLIT_IN_CLUSTER ? cluster_rank() : 0u,
                                         static_cast<u32>(splits)};
  float acc[ACC];
  int stage = 0;
  u32 phase = 0;
  u32 counted_last = 0;  // parallel_reduce: the units of the walk this consumer counted in last
  for (int u = first_unit; u < units; u += unit_stride) {
    int tile, split, tm, tn;
    split_k.unit(u, tile, split);
    const int p = tile / tiles.count();
    tiles.coords(tile % tiles.count(), tm, tn);
    tm = tm * CLUSTER_M + rank_m;  // this block's tile
    tn = tn * CLUSTER_N + rank_n;
#pragma unroll
    for (int i = 0; i < ACC; ++i) acc[i] = 0.0f;
    fence_accumulators(acc);
    int held = -1;  // the stage whose MMAs may still be running
    const int kt_begin = split_k.begin(split), kt_end = split_k.end(split);
    const bool prefetch_residual = TMA_STORE_RESIDUAL && tma_store && residual != nullptr;
    const int kt_prefetch = max(kt_begin, kt_end - RESIDUAL_PREFETCH_STAGES);
    for (int kt = kt_begin; kt < kt_end; ++kt) {
      if (prefetch_residual && kt == kt_prefetch) {
        prefetch_residual_l2<T, OUT_BN>(residual + static_cast<i64>(p) * M * N,
                                        tm * OUT_BM + consumer * 64, tn * OUT_BN, M, N);
      }
      mbar_wait(&full[stage], phase);
      const unsigned char* a = a_tiles + stage * A_TILE_BYTES + consumer * BOX_BYTES;
      const unsigned char* b = b_tiles + stage * B_TILE_BYTES;
      wgmma_fence();
#pragma unroll
      for (int k16 = 0; k16 < BK / 16; ++k16) {
        // K-major: box k16 / 4 of the stage, 16-deep slice k16 % 4 of its 128-byte rows.
        constexpr int kSlices = BOX_K / 16;
        const int kb = k16 / kSlices, kk = k16 % kSlices;
        const u64 da = A_K_MAJOR ? desc_k_major(a + kb * (A_TILE_BYTES / KBOXES), kk)
                                 : desc_mn_major(a, k16, BOX_BYTES);
        const u64 db = B_K_MAJOR ? desc_k_major(b + kb * (B_TILE_BYTES / KBOXES), kk)
                                 : desc_mn_major(b, k16, BOX_BYTES);
        WgmmaK16<T, BN>::template run<A_K_MAJOR ? 0 : 1, B_K_MAJOR ? 0 : 1>(acc, da, db, 1u);
      }
      wgmma_commit();
      wgmma_wait<1>();  // the previous stage's MMAs are done: hand that stage back
      if (held >= 0 && t == 0) release_stage(&empty[held]);
      held = stage;
      if (++stage == STAGES) {
        stage = 0;
        phase ^= 1;
      }
    }
    wgmma_wait<0>();
    fence_accumulators(acc);
    if (held >= 0 && t == 0) release_stage(&empty[held]);

    const int row0 = tm * OUT_BM + (GATED_SWAPPED ? 0 : consumer * 64), col0 = tn * OUT_BN;
    const i64 problem_offset = static_cast<i64>(p) * M * N;
    T* const d_p = d + problem_offset;
    const GemmTailArgs<T> tail{bias, residual != nullptr ? residual + problem_offset : nullptr};
    if constexpr (SPLIT_IN_CLUSTER) {
      // The first block of the cluster holds the tile's sum and stores it as an unsplit tile.
      if (splits > 1 && !cluster_split.reduce(acc)) continue;
    }
    if (splits == 1 || SPLIT_IN_CLUSTER) {
      if constexpr (SWAP_AB) {
        store_swapped_tile(acc, consumer, exchange, d_p, tail, M, N, row0, col0);
        continue;
      }
      if constexpr (TMA_STORE_TILES) {
        if (tma_store) {
          store_tile_tma<T, ACC, OUT_BN, GATED_ACT, TMA_STORE_RESIDUAL>(
              acc, epilogue_mine, slabs_stored, &map_d, row0, col0, p, bias, tail.residual, M, N,
              1 + consumer);
          continue;
        }
      }
      store_rows(acc, stage_of_warp, d_p, tail, M, N, row0, col0, vec_stores);
      continue;
    }
    const int slot = split_slot(tile, rank, consumer);
    F32x4* mine = partial_slot(partials, slot, split, splits);
#pragma unroll
    for (int q = 0; q < ACC / 4; ++q) {
      mine[q * kWarpgroupThreads] =
          F32x4{acc[4 * q], acc[4 * q + 1], acc[4 * q + 2], acc[4 * q + 3]};
    }
    __threadfence();
    // Each split counts itself in. Serial, the last split of the tile to do so sums every partial
    // and stores the tile; no split waits for another, so nothing assumes the splits are resident
    // at once. Gated and swapped, the tile's two consumers count in once, together: the last split
    // must hold both sums. Parallel (a cooperative launch: every block is resident), each split
    // goes on, and once its walk is done waits for the other splits of each tile it took and sums
    // and stores its share of the tile's columns (below the walk, where no accumulators are live:
    // inside it, the share's code made ptxas spill them).
    if (GATED_SWAPPED) {
      named_barrier_sync(kPairBarrier, 2 * kWarpgroupThreads);
      if (t == 0 && consumer == 0) last_split[0] = atomicAdd(&counters[slot], 1) == splits - 1;
      named_barrier_sync(kPairBarrier, 2 * kWarpgroupThreads);
      if (!last_split[0]) continue;
    } else {
      named_barrier_sync(1 + consumer, kWarpgroupThreads);
      if (t == 0) last_split[consumer] = atomicAdd(&counters[slot], 1) == splits - 1;
      named_barrier_sync(1 + consumer, kWarpgroupThreads);
      if (PARALLEL_REDUCE_TILES && parallel_reduce) {
        // The last to count in need not wait for the others (the first 32 units of a walk).
        const int w = (u - first_unit) / unit_stride;
        if (last_split[consumer] && w < 32) counted_last |= 1u << w;
        continue;
      }
      if (!last_split[consumer]) continue;
    }
    __threadfence();
    sum_partials(acc, partials, slot, splits, split);
    if constexpr (SWAP_AB) {
      store_swapped_tile(acc, consumer, exchange, d_p, tail, M, N, row0, col0);
    } else {
      store_rows(acc, stage_of_warp, d_p, tail, M, N, row0, col0, vec_stores);
    }
  }
  if (PARALLEL_REDUCE_TILES && parallel_reduce && splits > 1) {
    for (int u = first_unit; u < units; u += unit_stride) {
      int tile, split, tm, tn;
      split_k.unit(u, tile, split);
      const int p = tile / tiles.count();
      tiles.coords(tile % tiles.count(), tm, tn);
      tm = tm * CLUSTER_M + rank_m;
      tn = tn * CLUSTER_N + rank_n;
      const int slot = split_slot(tile, rank, consumer);
      const int w = (u - first_unit) / unit_stride;
      if (t == 0 && !(w < 32 && (counted_last >> w & 1u))) await_splits(&counters[slot], splits);
      named_barrier_sync(1 + consumer, kWarpgroupThreads);
      __threadfence();
      const i64 problem_offset = static_cast<i64>(p) * M * N;
      const GemmTailArgs<T> tail{bias, residual != nullptr ? residual + problem_offset : nullptr};
      reduce_share(partials, slot, split, splits, stage_of_warp, d + problem_offset, tail, M, N,
                   tm * OUT_BM + consumer * 64, tn * OUT_BN, vec_stores);
    }
  }
  if (TMA_STORE_TILES && tma_store) store_tma_drain();
}
