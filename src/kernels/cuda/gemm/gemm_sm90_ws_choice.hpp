// The tile kernel's (gemm_sm90_ws) scored choice for a call, for a kernel whose dispatch rule
// depends on what the tile kernel would do in its place (gemm_swap_cuda.cpp).
#pragma once

#include "tileops/ops/gemm/gemm_fwd_op.hpp"

namespace tileops::cuda {

struct WsScoredChoice {
  int bm = 0, bn = 0, bk = 0;
  int splits = 1;  // K splits, 1 when K is not split
};

// The tile and K splits gemm_sm90_ws's score takes for call on a device of `sms` SMs with every
// tile's full split, before the serial-split cap (split_cap in gemm_sm90_ws_cuda.cpp): the choice
// the swapped kernel's rule was measured against, so that rule keeps the rows it was measured on.
// The tile kernel itself runs a call it serves at the capped choice.
WsScoredChoice ws_scored_choice(const GemmCall& call, int sms);

}  // namespace tileops::cuda
