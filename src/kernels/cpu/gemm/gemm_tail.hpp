// The tail of a GEMM call on the CPU (GemmCall: gated activation, bias, residual), applied to
// fp32 sums before the one rounding to the output dtype.
#pragma once

#include "kernels/cpu/activation.hpp"
#include "kernels/cpu/element.hpp"
#include "tileops/ops/gemm/gemm_kernel.hpp"

namespace tileops::cpu {

template <typename T>
class GemmTailStore {
 public:
  GemmTailStore(const GemmCall& call, const GemmTail& tail, T* d)
      : call_(call),
        bias_(call.bias ? tail.bias.data_as<const T>() : nullptr),
        residual_(call.residual ? tail.residual.data_as<const T>() : nullptr),
        d_(d) {}

  // The store of problem p of a batched call.
  GemmTailStore for_problem(int64_t p) const {
    GemmTailStore s = *this;
    const int64_t offset = p * call_.m * call_.n;
    if (s.residual_ != nullptr) s.residual_ += offset;
    s.d_ += offset;
    return s;
  }

  // Stores d[i, j0 + c] for c in [0, count) from the sums of those output columns (gate sums
  // when gated, with the up sums in `up`; up is ignored otherwise).
  void row(int64_t i, int64_t j0, int64_t count, const float* sums, const float* up) const {
    const int64_t base = i * call_.n + j0;
    for (int64_t c = 0; c < count; ++c) {
      float v = call_.gated ? activate(call_.activation, sums[c]) * up[c] : sums[c];
      if (bias_ != nullptr) v += load(bias_[j0 + c]);
      if (residual_ != nullptr) v += load(residual_[base + c]);
      d_[base + c] = store<T>(v);
    }
  }

 private:
  const GemmCall& call_;
  const T* bias_;
  const T* residual_;
  T* d_;
};

}  // namespace tileops::cpu
