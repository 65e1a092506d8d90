#include "tileops/ops/elementwise/gelu_and_mul_fwd_op.hpp"

namespace tileops {

GeluAndMulFwdOp::GeluAndMulFwdOp(Params params, Target target)
    : GeluAndMulFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& GeluAndMulFwdOp::decl() {
  static const OpDecl kDecl{{&GeluAndMulKernel::info()}, {}, {}};
  return kDecl;
}

void GeluAndMulFwdOp::forward(const Tensor& x, Tensor& output) {
  const GeluAndMulCall call = act_and_mul_call<GatedActivation::kGelu>(x, output);
  kernel_for<GeluAndMulKernel>(call).run(call, x, output);
}

}  // namespace tileops
