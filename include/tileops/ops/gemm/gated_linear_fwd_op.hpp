// GatedLinearFwdOp: y = act(x @ w_gate^T) * (x @ w_up^T) in one GEMM, where weight stacks w_gate
// ([I, K]) over w_up ([I, K]); act is torch's silu, gelu or gelu(approximate='tanh'), chosen by
// the `activation` param. x is [*, K] and y [*, I]. The gate and up sums meet in the GEMM's
// store, so the [*, 2I] intermediate of a separate activation op is never written.
#pragma once

#include "tileops/export.hpp"
#include "tileops/generated/gemm.gen.hpp"
#include "tileops/ops/gemm/gemm_kernel.hpp"

namespace tileops {

class TILEOPS_API GatedLinearFwdOp final : public gen::GatedLinearFwdOpBase {
 public:
  explicit GatedLinearFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, const Tensor& weight, Tensor& y) override;
  GatedActivation activation_;
};

}  // namespace tileops
