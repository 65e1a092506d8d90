// cuBLASLt as one more tuning candidate of tileops's own GEMM kernels: a tuned call then runs
// whichever of the kernel's tiles and the vendor library's heuristic choice timed fastest, so
// tuning never leaves a user slower than cuBLASLt (docs/design/tuning.md). Untuned calls never
// reach it. Plans are made per call shape on first use and kept.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "runtime/cuda/cublaslt_api.hpp"
#include "tileops/ops/gemm/gemm_kernel.hpp"

namespace tileops::cuda {

// Whether TILEOPS_CUBLASLT switches cuBLASLt off ("0" or "off"); read at each call.
bool cublaslt_switched_off();

// The cuBLASLt problem of a (not gated) GEMM call, its operands on 16 bytes.
LtGemmShape lt_shape_of(const GemmCall& call);

class CublasLtCandidate {
 public:
  // Whether cuBLASLt can be a candidate for a kernel serving calls of this kind: it is loaded,
  // not switched off, and the calls are not gated (no gated epilogue in cuBLASLt).
  static bool offered(bool gated);

  // Scratch the plan for call needs; 0 when no plan can be made (the candidate then fails its
  // trial and is skipped).
  int64_t workspace_bytes(const GemmCall& call);
  // Enqueues call on the current stream of a's device. Throws RuntimeError when cuBLASLt has no
  // plan for the shape, or the output or residual is off a 16-byte boundary (the plans here
  // assume 16).
  void enqueue(const GemmCall& call, const void* a, const void* b, void* d, const void* bias,
               const void* residual, void* workspace, int device);

 private:
  using Key = std::array<int64_t, 9>;
  // The plan for call, made on first use; null when cuBLASLt has none.
  const LtGemmPlan* plan(const GemmCall& call);

  std::mutex mutex_;
  std::map<Key, std::unique_ptr<LtGemmPlan>> plans_;
};

}  // namespace tileops::cuda
