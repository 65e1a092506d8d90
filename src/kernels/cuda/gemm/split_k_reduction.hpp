// How the tile kernel's split-K sums its partials (gemm_sm90_ws.cu): in parallel by every split of
// a tile, on a cooperative launch, or by the last split alone. TILEOPS_GEMM_SPLIT_REDUCE=serial
// forces the last-split form everywhere, so that the two can be timed in one run
// (bench/torch/swap_plan_sweep.py); it is read when dispatch builds an implementation.
#pragma once

#include <cstdlib>
#include <cstring>

namespace tileops::cuda {

// The fewest splits reduced in parallel. The parallel form costs a wait for every split and a
// cooperative launch; on an H100 it lost 0.3 to 1.2 us at 2 to 4 splits and won 1.0 to 7.6 us at
// 5 to 14 (docs/perf/h200-split-reduce-2026-12-05).
inline constexpr int kParallelReduceMinSplits = 5;

// Whether the tile kernel reduces `splits` k-shares in parallel: ungated calls (whose tiles are
// whole output column groups) split at least kParallelReduceMinSplits ways.
inline bool reduces_in_parallel(int splits, bool gated) {
  return splits >= kParallelReduceMinSplits && !gated;
}

inline bool split_reduce_forced_serial() {
  const char* v = std::getenv("TILEOPS_GEMM_SPLIT_REDUCE");
  return v != nullptr && std::strcmp(v, "serial") == 0;
}

}  // namespace tileops::cuda
