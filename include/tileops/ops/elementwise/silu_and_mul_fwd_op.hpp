// SiluAndMulFwdOp: output = silu(x[..., :N]) * x[..., N:] for x of shape [..., 2N] (vLLM
// convention: the first half is the gate).
#pragma once

#include "tileops/export.hpp"
#include "tileops/generated/elementwise.gen.hpp"
#include "tileops/ops/elementwise/act_and_mul.hpp"

namespace tileops {

using SiluAndMulCall = ActAndMulCall<GatedActivation::kSilu>;
// Interface "silu_and_mul": x is [..., 2n] and output [..., n], both contiguous, their leading
// dims flattened into m rows.
using SiluAndMulKernel = ActAndMulKernel<GatedActivation::kSilu>;

class TILEOPS_API SiluAndMulFwdOp final : public gen::SiluAndMulFwdOpBase {
 public:
  explicit SiluAndMulFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, Tensor& output) override;
};

}  // namespace tileops
