#include "tileops/ops/reduction/softmax_fwd_op.hpp"

namespace tileops {

SoftmaxFwdOp::SoftmaxFwdOp(Params params, Target target)
    : SoftmaxFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& SoftmaxFwdOp::decl() {
  static const OpDecl kDecl{{&SoftmaxKernel::info()}, {}, {}};
  return kDecl;
}

void SoftmaxFwdOp::forward(const Tensor& x, Tensor& output) {
  const SoftmaxCall call = SoftmaxCall::of(x, params().dim);
  kernel_for<SoftmaxKernel>(call).run(call, x, output);
}

}  // namespace tileops
