// Tuning of a CUDA GEMM kernel's candidates for one call spec (docs/design/tuning.md): the
// candidates run on scratch random operands of the call's shapes, are checked against the
// default candidate, and the fastest is kept per board in the on-disk store.
#pragma once

#include <functional>

#include "runtime/tuning/tuner.hpp"
#include "tileops/core/tensor.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"

namespace tileops::cuda {

// Enqueues candidate c on operands a, b, output d and scratch workspace.
using GemmEnqueue =
    std::function<void(int c, const void* a, const void* b, void* d, void* workspace)>;

// The candidate to run for call: `fallback` untuned, else the tuner's settled choice. Trials get
// workspace_bytes of scratch of their own; candidates for which repeats_earlier is true run what an
// earlier one runs and are not timed.
int choose_gemm_candidate(tuning::Tuner& tuner, const std::string& kernel, const GemmCall& call,
                          int fallback, const Tensor& a, const Tensor& b, const Tensor& d,
                          int64_t workspace_bytes, const GemmEnqueue& enqueue,
                          std::function<bool(int)> repeats_earlier = {});

}  // namespace tileops::cuda
