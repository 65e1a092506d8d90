#include "tileops/ops/reduction/log_softmax_fwd_op.hpp"

namespace tileops {

LogSoftmaxFwdOp::LogSoftmaxFwdOp(Params params, Target target)
    : LogSoftmaxFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& LogSoftmaxFwdOp::decl() {
  static const OpDecl kDecl{{&LogSoftmaxKernel::info()}, {}, {}};
  return kDecl;
}

void LogSoftmaxFwdOp::forward(const Tensor& x, Tensor& output) {
  const SoftmaxCall call = SoftmaxCall::of(x, params().dim);
  kernel_for<LogSoftmaxKernel>(call).run(call, x, output);
}

}  // namespace tileops
