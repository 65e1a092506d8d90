// The tile kernel's (gemm_sm90_ws) choices for a call: its score's, for a kernel whose dispatch
// rule depends on what the tile kernel would do in its place (gemm_swap_cuda.cpp), and the untuned
// one it runs, for tests on the CPU.
#pragma once

#include <string>
#include <vector>

#include "internal_api.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"

namespace tileops::cuda {

struct WsScoredChoice {
  int bm = 0, bn = 0, bk = 0;
  int splits = 1;  // K splits, 1 when K is not split
};

// The tile and K splits gemm_sm90_ws's score takes for call on a device of `sms` SMs with every
// tile's full split, before the serial-split cap (untuned_plan in gemm_sm90_ws_cuda.cpp): the
// choice the swapped kernel's rule was measured against, so that rule keeps the rows it was
// measured on.
TILEOPS_INTERNAL_API WsScoredChoice ws_scored_choice(const GemmCall& call, int sms);

// The tile and K splits gemm_sm90_ws runs untuned for call on a device of `sms` SMs: the score's
// choice under the serial-split cap, or with serial_first false
// (TILEOPS_GEMM_SERIAL_SPLITS_FIRST=0) without it; experimental: with the tiles
// TILEOPS_GEMM_EXPERIMENTAL offers (which the untuned choice must still pass over).
TILEOPS_INTERNAL_API WsScoredChoice ws_untuned_choice(const GemmCall& call, int sms,
                                                      bool serial_first, bool experimental = false);

// The tile kernel's tuning candidates for call's layout (cuBLASLt left out), with or without the
// tiles offered only under TILEOPS_GEMM_EXPERIMENTAL (gemm_experimental.hpp).
TILEOPS_INTERNAL_API std::vector<std::string> ws_tuning_candidates(const GemmCall& call,
                                                                   bool experimental);

}  // namespace tileops::cuda
