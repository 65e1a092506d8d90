// The rows of a tail box (gemm_sm90_ws.cu's map_a_tail and map_b_tail): the rows of an operand
// the last of its tiles of tile_rows holds, rounded up to whole 8-row swizzle atoms; 0 when that
// box would be the whole tile's (the tile is whole, or a few rows short of it), so that no second
// tensor map is encoded for nothing.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace tileops::cuda {

constexpr int tail_box_rows(int64_t rows, int tile_rows) {
  const int64_t box = (rows % tile_rows + 7) / 8 * 8;
  return box < tile_rows ? static_cast<int>(box) : 0;
}

// TILEOPS_GEMM_TAIL_BOXES=0 (or "off"): the last tiles load whole boxes running past M or N, as
// they did before the tail boxes, so that the two can be timed in one run
// (bench/torch/swap_plan_sweep.py). Read when dispatch builds an implementation.
inline bool tail_boxes_switched_off() {
  const char* v = std::getenv("TILEOPS_GEMM_TAIL_BOXES");
  return v != nullptr && (std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0);
}

}  // namespace tileops::cuda
