// The tile kernel's (gemm_sm90_ws) untuned choice for a call, for a kernel whose dispatch rule
// depends on what the tile kernel would do in its place (gemm_swap_cuda.cpp).
#pragma once

#include "tileops/ops/gemm/gemm_fwd_op.hpp"

namespace tileops::cuda {

struct WsUntunedChoice {
  int bm = 0, bn = 0, bk = 0;
  int splits = 1;  // K splits, 1 when K is not split
};

// The tile and K splits gemm_sm90_ws runs untuned for call on a device of `sms` SMs.
WsUntunedChoice ws_untuned_choice(const GemmCall& call, int sms);

}  // namespace tileops::cuda
