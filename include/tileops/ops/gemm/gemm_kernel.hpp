// The "gemm" kernel interface, shared by GemmFwdOp, LinearFwdOp and GatedLinearFwdOp:
// d = op(a) @ op(b) with fp32 accumulation, and the tail a linear layer fuses into the store
// (bias, residual, gated activation), applied to the fp32 sums before the single rounding.
#pragma once

#include "tileops/core/tensor.hpp"
#include "tileops/export.hpp"
#include "tileops/framework/call_spec.hpp"
#include "tileops/framework/kernel.hpp"
#include "tileops/ops/elementwise/act_and_mul.hpp"

namespace tileops {

struct TILEOPS_API GemmCall : CallSpec {
  DType dtype = DType::kFloat32;
  int64_t batch = 1;  // problems; a, b, d and residual hold one after another, contiguous
  int64_t m = 0;
  int64_t n = 0;  // columns of d
  int64_t k = 0;
  bool trans_a = false;
  bool trans_b = true;
  // a and b start on 16-byte boundaries (what TMA and 16-byte loads need; tensors from the
  // allocators always do, views at an element offset may not).
  bool aligned16 = true;
  // The tail, in this order: d = act(gate) * up when gated, where b holds 2n output columns
  // (gate columns [0, n), then up columns [n, 2n)); then + bias[j]; then + residual[i, j].
  bool gated = false;
  GatedActivation activation = GatedActivation::kSilu;  // read only when gated
  bool bias = false;
  bool residual = false;

  bool plain() const { return !gated && !bias && !residual; }
  // Output columns op(b) holds: 2n when gated.
  int64_t b_columns() const { return gated ? 2 * n : n; }
  friend bool operator==(const GemmCall&, const GemmCall&) = default;
  size_t hash() const {
    return CallHasher::of(device, dtype, batch, m, n, k, trans_a, trans_b, aligned16, gated,
                          static_cast<int>(activation), bias, residual);
  }
  std::string describe() const;
};

// The tensors of the tail: bias is [n] (shared by every problem of a batch) and residual
// [batch, m, n] (contiguous, the dtype of d) when the call asks for them, undefined otherwise.
// residual may be d itself.
struct GemmTail {
  Tensor bias;
  Tensor residual;
};

// Interface "gemm": a, b and d are contiguous; per problem of the batch, a is [m, k] ([k, m] when
// trans_a), b is [b_columns, k] when trans_b ([k, b_columns] otherwise) and d is [m, n]. An
// implementation that does not fuse some tail refuses calls that ask for it.
class TILEOPS_API GemmKernel : public KernelInterface<GemmKernel, GemmCall> {
 public:
  static constexpr std::string_view kName = "gemm";
  // Scratch memory run needs for call, in bytes (0: none): split-K partial sums, for example.
  // The op allocates it on the call's device through the tensor allocator and hands it to run,
  // so no kernel allocates, and a CUDA-graph capture records the allocation like an output's.
  virtual int64_t workspace_bytes(const GemmCall&) const { return 0; }
  // workspace holds workspace_bytes(call) bytes (an undefined tensor when that is 0).
  virtual void run(const GemmCall& call, const Tensor& a, const Tensor& b, const Tensor& d,
                   const GemmTail& tail, const Tensor& workspace) = 0;
};

// Whether t's data starts on a 16-byte boundary (GemmCall::aligned16).
inline bool starts_on_16_bytes(const Tensor& t) {
  return (reinterpret_cast<uintptr_t>(t.data()) & 15u) == 0;
}

// The rows of a linear layer's input x [*, K]: the product of every dim but the last.
inline int64_t linear_rows(const Tensor& x) {
  int64_t rows = 1;
  for (int i = 0; i + 1 < x.rank(); ++i) rows *= x.size(i);
  return rows;
}

// Runs call on kernel with a workspace of the size it asks for, allocated on a's device.
TILEOPS_API void run_gemm(GemmKernel& kernel, const GemmCall& call, const Tensor& a,
                          const Tensor& b, const Tensor& d, const GemmTail& tail);

}  // namespace tileops
