#include "tileops/ops/elementwise/silu_and_mul_fwd_op.hpp"

namespace tileops {

SiluAndMulFwdOp::SiluAndMulFwdOp(Params params, Target target)
    : SiluAndMulFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& SiluAndMulFwdOp::decl() {
  static const OpDecl kDecl{{&SiluAndMulKernel::info()}, {}, {}};
  return kDecl;
}

void SiluAndMulFwdOp::forward(const Tensor& x, Tensor& output) {
  const SiluAndMulCall call = act_and_mul_call<GatedActivation::kSilu>(x, output);
  kernel_for<SiluAndMulKernel>(call).run(call, x, output);
}

}  // namespace tileops
