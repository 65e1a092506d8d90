// How the swapped-operand GEMM (gemm_swap_cuda.cpp) cuts a call: tiles of 128 or 64 weight rows,
// K split over the blocks of a thread-block cluster. Plain host arithmetic, so dispatch tests and
// the CPU test of the plan (tests/cuda/test_swap_plan.cpp) can run it without a GPU.
#pragma once

#include <cstdint>

#include "tileops/ops/gemm/gemm_fwd_op.hpp"

namespace tileops::cuda {

inline constexpr int kSwapKTile = 64;  // K a pipeline stage holds
inline constexpr int kSwapMinKTilesPerSplit = 4;
inline constexpr int kSwapMaxSplits = 8;  // a portable cluster (gemm_cluster_split.cuh)
// Weight rows a tile reads: 128 (two 64-row consumer warpgroups) or 64 (one). Gated tiles are
// always 128 (64 gate rows over their 64 up rows).
inline constexpr int kSwapTileRows[] = {128, 64};

// Tiles of bm weight rows by bn tokens over the whole batch (a gated tile covers bm / 2 output
// columns); bn = 0 (the plan's tiles), one token tile holding every token.
inline int64_t swap_tile_count(const GemmCall& call, int bm, int bn = 0) {
  const int cols = call.gated ? bm / 2 : bm;
  const int64_t token_tiles = bn == 0 ? 1 : (call.m + bn - 1) / bn;
  return call.batch * ((call.n + cols - 1) / cols) * token_tiles;
}

// Whether a call can be cut into tiles of bm weight rows with K split `splits` ways: 128 or 64 rows
// (gated, 128 only), 1 to kSwapMaxSplits splits, each at least kSwapMinKTilesPerSplit k-tiles deep.
inline bool swap_cut_valid(const GemmCall& call, int bm, int splits) {
  const int64_t k_tiles = (call.k + kSwapKTile - 1) / kSwapKTile;
  return (bm == 128 || (bm == 64 && !call.gated)) && splits >= 1 && splits <= kSwapMaxSplits &&
         (splits == 1 || k_tiles / splits >= kSwapMinKTilesPerSplit);
}

// A cut: tiles of bm weight rows, K split over `splits` blocks of a cluster, at most `slots`
// clusters running at once.
struct SwapPlan {
  int bm = 128, splits = 1;
  int64_t tiles = 0, slots = 0;
};

// The cut that streams the fewest weight rows x k-tiles per block over its waves, among tiles of
// 128 and 64 rows and splits of 1 to kSwapMaxSplits (each at least kSwapMinKTilesPerSplit k-tiles
// deep), fewer splits, then larger tiles, on ties. A split is taken only where every tile's
// cluster fits the device at once (the hardware schedules a cluster's blocks together, so this is
// for speed: a second wave of clusters would double the call). slots(bm, s) is how many clusters
// of s blocks fit, as the device answers (0: none). (Blocks that walked several split units each
// made 1x13824x5120 take 66 us against the skinny kernel's 44, and one unit a block 42.1:
// docs/perf/h200-swap-ab-2026-12-02.)
template <typename Slots>
SwapPlan swap_plan_for(const GemmCall& call, int sms, Slots&& slots) {
  const int64_t k_tiles = (call.k + kSwapKTile - 1) / kSwapKTile;
  SwapPlan best;
  int64_t best_cost = INT64_MAX;
  for (int bm : kSwapTileRows) {
    const int64_t tiles = swap_tile_count(call, bm);
    for (int s = 1; s <= kSwapMaxSplits; ++s) {
      if (!swap_cut_valid(call, bm, s)) break;
      const int64_t fit = s == 1 ? sms : slots(bm, s);
      if (fit <= 0 || (s > 1 && tiles > fit)) continue;
      const int64_t cost = (tiles + fit - 1) / fit * bm * ((k_tiles + s - 1) / s);
      if (cost < best_cost || (cost == best_cost && s < best.splits)) {
        best = {bm, s, tiles, fit};
        best_cost = cost;
      }
    }
  }
  return best;
}

}  // namespace tileops::cuda
