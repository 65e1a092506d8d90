#include "tileops/ops/elementwise/gelu_tanh_and_mul_fwd_op.hpp"

namespace tileops {

GeluTanhAndMulFwdOp::GeluTanhAndMulFwdOp(Params params, Target target)
    : GeluTanhAndMulFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& GeluTanhAndMulFwdOp::decl() {
  static const OpDecl kDecl{{&GeluTanhAndMulKernel::info()}, {}, {}};
  return kDecl;
}

void GeluTanhAndMulFwdOp::forward(const Tensor& x, Tensor& output) {
  const GeluTanhAndMulCall call = act_and_mul_call<GatedActivation::kGeluTanh>(x, output);
  kernel_for<GeluTanhAndMulKernel>(call).run(call, x, output);
}

}  // namespace tileops
