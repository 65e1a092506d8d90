// GeluAndMulFwdOp: output = gelu(x[..., :N]) * x[..., N:] with torch's exact gelu (erf) for x
// of shape [..., 2N] (the first half is the gate).
#pragma once

#include "tileops/export.hpp"
#include "tileops/generated/elementwise.gen.hpp"
#include "tileops/ops/elementwise/act_and_mul.hpp"

namespace tileops {

using GeluAndMulCall = ActAndMulCall<GatedActivation::kGelu>;
// Interface "gelu_and_mul": x is [..., 2n] and output [..., n], both contiguous, their leading
// dims flattened into m rows.
using GeluAndMulKernel = ActAndMulKernel<GatedActivation::kGelu>;

class TILEOPS_API GeluAndMulFwdOp final : public gen::GeluAndMulFwdOpBase {
 public:
  explicit GeluAndMulFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, Tensor& output) override;
};

}  // namespace tileops
