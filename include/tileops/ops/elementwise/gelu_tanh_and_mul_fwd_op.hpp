// GeluTanhAndMulFwdOp: output = gelu(x[..., :N], approximate="tanh") * x[..., N:] for x of
// shape [..., 2N] (the first half is the gate).
#pragma once

#include "tileops/export.hpp"
#include "tileops/generated/elementwise.gen.hpp"
#include "tileops/ops/elementwise/act_and_mul.hpp"

namespace tileops {

using GeluTanhAndMulCall = ActAndMulCall<GatedActivation::kGeluTanh>;
// Interface "gelu_tanh_and_mul": x is [..., 2n] and output [..., n], both contiguous, their leading
// dims flattened into m rows.
using GeluTanhAndMulKernel = ActAndMulKernel<GatedActivation::kGeluTanh>;

class TILEOPS_API GeluTanhAndMulFwdOp final : public gen::GeluTanhAndMulFwdOpBase {
 public:
  explicit GeluTanhAndMulFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, Tensor& output) override;
};

}  // namespace tileops
