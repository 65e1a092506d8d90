// GeluAndMulFwdOp: output = gelu(x[:, :N]) * x[:, N:] with torch's exact gelu (erf) for x of shape
// [M, 2N] (the first half is the gate).
#pragma once

#include "tileops/export.hpp"
#include "tileops/generated/elementwise.gen.hpp"
#include "tileops/ops/elementwise/act_and_mul.hpp"

namespace tileops {

using GeluAndMulCall = ActAndMulCall<GatedActivation::kGelu>;
// Interface "gelu_and_mul": x is [m, 2n] and output [m, n], both contiguous.
using GeluAndMulKernel = ActAndMulKernel<GatedActivation::kGelu>;

class TILEOPS_API GeluAndMulFwdOp final : public gen::GeluAndMulFwdOpBase {
 public:
  explicit GeluAndMulFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, Tensor& output) override;
};

}  // namespace tileops
