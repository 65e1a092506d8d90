// The GEMM epilogue through TMA stores: a consumer warpgroup converts its 64 output rows to T in
// 64-column slabs, writes each slab into shared memory with stmatrix in the 128-byte swizzle the
// output's tensor map expects, and one thread hands the slab to a TMA store. The warpgroup does
// not wait for the store: it goes on to its next tile's MMAs while the copy engine writes, and
// waits only before it rewrites a slab buffer (two buffers, used in turn). The synchronous
// epilogue this replaces held both consumers' MMAs for about an eighth of a 4096x4096x7168 call
// (docs/perf/h200-epilogue-2026-12-02).
//
// Rows and columns past the output are clipped by the store, so tiles at the edges need no code.
// The bias and the residual (added after the gated activation, as gemm_tail) are read per element
// pair. The residual is read only with RESIDUAL (the host enables it for two-consumer tiles: in a
// one-consumer tile's epilogue its registers made ptxas spill): a thread loads the next slab's
// pairs while it converts and writes the current one, and every pair of a slab has been read
// before the store that writes its place is issued, so the residual may be the output itself.
#pragma once

#include "device/activation.cuh"
#include "device/cache_policy.cuh"
#include "device/numeric.cuh"
#include "device/sm90/matrix_load_store.cuh"
#include "device/sm90/tma.cuh"
#include "device/sm90/warpgroup.cuh"

namespace tileops::dev::sm90 {

constexpr int kStoreSlabCols = 64;  // one 128-byte swizzle row of 16-bit elements
constexpr int kStoreSlabBytes = 64 * kStoreSlabCols * 2;
constexpr int kStoreBuffers = 2;

// Accumulator i of a consumer's fragment (m64nN): the sum, or act(gate) * up when gated (the up
// sums ACC / 2 registers on).
template <int ACC, int GATED_ACT>
__device__ __forceinline__ float store_value(const float (&acc)[ACC], int i) {
  if constexpr (GATED_ACT >= 0) {
    return activate(GATED_ACT, acc[i]) * acc[i + ACC / 2];
  } else {
    return acc[i];
  }
}

// The residual pairs one thread adds to a slab: rows g and g + 8 of its warp's 16 (lo, hi), the
// columns 2 * quad, 2 * quad + 1 of each of the slab's eight 8-column groups; zero past the output.
struct ResidualSlab {
  u32 lo[kStoreSlabCols / 8], hi[kStoreSlabCols / 8];
};

// lo_row, hi_row: the thread's two residual rows (null past the output's rows); col: its first
// column in the slab; n: the output's columns (a multiple of 8, so a pair is in or out whole).
template <typename T>
__device__ __forceinline__ void load_residual_slab(ResidualSlab& r, const T* lo_row,
                                                   const T* hi_row, int col, int n) {
#pragma unroll
  for (int group = 0; group < kStoreSlabCols / 8; ++group) {
    const int c = col + 8 * group;
    r.lo[group] = lo_row != nullptr && c < n ? *reinterpret_cast<const u32*>(lo_row + c) : 0u;
    r.hi[group] = hi_row != nullptr && c < n ? *reinterpret_cast<const u32*>(hi_row + c) : 0u;
  }
}

// Asks the L2 for a consumer's 64 x OUT_COLS residual rows at (row0, col0) of an m x n output: a
// line a request, spread over the warpgroup. Called some stages before the tile's last MMAs, so
// that the epilogue's loads find the rows in the L2.
template <typename T, int OUT_COLS>
__device__ __forceinline__ void prefetch_residual_l2(const T* residual, int row0, int col0, int m,
                                                     int n) {
  constexpr int kLineCols = 128 / sizeof(T);
  constexpr int kLinesPerRow = (OUT_COLS + kLineCols - 1) / kLineCols;
  for (int line = warpgroup_thread(); line < 64 * kLinesPerRow; line += kWarpgroupThreads) {
    const int row = row0 + line / kLinesPerRow, col = col0 + (line % kLinesPerRow) * kLineCols;
    if (row < m && col < n) prefetch_line_l2(residual + static_cast<i64>(row) * n + col);
  }
}

// Stores the consumer's 64 x OUT_COLS tile at (col0, row0) of matrix p through map_d. buffers:
// this consumer's kStoreBuffers slab buffers (1024-byte aligned); seq: slabs this consumer has
// stored so far (picks the buffer, carried across tiles). barrier_id names the consumer's
// 128-thread named barrier. bias (or null): per output column, n columns. residual (or null, read
// only with RESIDUAL): problem p's m x n residual, which may be the output.
template <typename T, int ACC, int OUT_COLS, int GATED_ACT, bool RESIDUAL>
__device__ __forceinline__ void store_tile_tma(const float (&acc)[ACC], unsigned char* buffers,
                                               u32& seq, const TensorMap* map_d, int row0, int col0,
                                               int p, const T* bias, const T* residual, int m,
                                               int n, u32 barrier_id) {
  static_assert(OUT_COLS % kStoreSlabCols == 0, "whole slabs");
  const int t = warpgroup_thread();
  const int lane = t % 32, warp = t / 32;
  const int quad = lane % 4;
  // stmatrix x4: lane l names row l % 8 of 8x8 matrix l / 8; matrices 0 and 1 are rows 0-7 and
  // 8-15 of one 8-column group, 2 and 3 the same of the next group.
  const int matrix = lane / 8;
  const int row = 16 * warp + lane % 8 + 8 * (matrix % 2);
  const int chunk_in_pair = matrix / 2;
  constexpr int kSlabs = OUT_COLS / kStoreSlabCols;
  // The fragment's rows of this thread: g and g + 8 of its warp's 16.
  const int frag_row = row0 + 16 * warp + lane / 4;
  const bool with_residual = RESIDUAL && residual != nullptr;
  const T* res_lo =
      with_residual && frag_row < m ? residual + static_cast<i64>(frag_row) * n : nullptr;
  const T* res_hi =
      with_residual && frag_row + 8 < m ? residual + static_cast<i64>(frag_row + 8) * n : nullptr;
  ResidualSlab res_now{}, res_next{};
  if (with_residual) load_residual_slab<T>(res_now, res_lo, res_hi, col0 + 2 * quad, n);
#pragma unroll
  for (int slab = 0; slab < kSlabs; ++slab) {
    if (with_residual && slab + 1 < kSlabs) {
      load_residual_slab<T>(res_next, res_lo, res_hi, col0 + (slab + 1) * kStoreSlabCols + 2 * quad,
                            n);
    }
    unsigned char* buffer = buffers + (seq % kStoreBuffers) * kStoreSlabBytes;
    // The store that last read this buffer (two slabs ago) must be done with it.
    if (t == 0) tma_store_wait_read<kStoreBuffers - 1>();
    named_barrier_sync(barrier_id, kWarpgroupThreads);
#pragma unroll
    for (int pair = 0; pair < kStoreSlabCols / 16; ++pair) {
      const int group = slab * (kStoreSlabCols / 8) + 2 * pair;  // first 8-column group
      u32 r[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        // Register pair j: group + j / 2, row g + 8 * (j % 2) (the fragment's layout).
        const int i = 4 * group + 2 * j;
        float lo = store_value<ACC, GATED_ACT>(acc, i);
        float hi = store_value<ACC, GATED_ACT>(acc, i + 1);
        if (bias != nullptr) {
          const int col = col0 + 8 * (group + j / 2) + 2 * quad;
          if (col < n) {
            const u32 w = *reinterpret_cast<const u32*>(bias + col);
            lo += unpack_lo<T>(w);
            hi += unpack_hi<T>(w);
          }
        }
        if (with_residual) {
          const int group_in_slab = 2 * pair + j / 2;
          const u32 w = j % 2 == 0 ? res_now.lo[group_in_slab] : res_now.hi[group_in_slab];
          lo += unpack_lo<T>(w);
          hi += unpack_hi<T>(w);
        }
        r[j] = pack2<T>(lo, hi);
      }
      const int chunk = 2 * pair + chunk_in_pair;  // 16-byte chunk of the 128-byte row
      stmatrix_x4(buffer + row * 128 + ((chunk ^ (row % 8)) * 16), r);
    }
    fence_async_smem();  // the stmatrix writes, before the TMA engine reads them
    named_barrier_sync(barrier_id, kWarpgroupThreads);
    if (t == 0) {
      tma_store_3d(map_d, buffer, col0 + slab * kStoreSlabCols, row0, p);
      tma_store_commit();
    }
    ++seq;
    if (with_residual) res_now = res_next;
  }
}

// Before the block exits: the last stores must be done reading shared memory.
__device__ __forceinline__ void store_tma_drain() {
  if (warpgroup_thread() == 0) tma_store_wait_read<0>();
}

}  // namespace tileops::dev::sm90
