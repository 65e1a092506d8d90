#include "tileops/ops/reduction/softmax_fwd_op.hpp"

#include "tileops/ops/workspace.hpp"

namespace tileops {

SoftmaxFwdOp::SoftmaxFwdOp(Params params, Target target)
    : SoftmaxFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& SoftmaxFwdOp::decl() {
  static const OpDecl kDecl{{&SoftmaxKernel::info()}, {}, {}};
  return kDecl;
}

void SoftmaxFwdOp::forward(const Tensor& x, Tensor& output) {
  const SoftmaxCall call = SoftmaxCall::of(x, output, params().dim);
  SoftmaxKernel& kernel = kernel_for<SoftmaxKernel>(call);
  kernel.run(call, x, output, allocate_workspace(kernel.workspace_bytes(call), x.device()));
}

}  // namespace tileops
