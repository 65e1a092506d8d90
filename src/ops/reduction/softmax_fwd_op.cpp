#include "tileops/ops/reduction/softmax_fwd_op.hpp"

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
  const int64_t scratch = kernel.workspace_bytes(call);
  const Tensor workspace =
      scratch > 0 ? Tensor::empty(Shape{scratch}, DType::kUInt8, x.device()) : Tensor();
  kernel.run(call, x, output, workspace);
}

}  // namespace tileops
