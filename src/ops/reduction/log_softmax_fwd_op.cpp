#include "tileops/ops/reduction/log_softmax_fwd_op.hpp"

#include "tileops/ops/workspace.hpp"

namespace tileops {

LogSoftmaxFwdOp::LogSoftmaxFwdOp(Params params, Target target)
    : LogSoftmaxFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& LogSoftmaxFwdOp::decl() {
  static const OpDecl kDecl{{&LogSoftmaxKernel::info()}, {}, {}};
  return kDecl;
}

void LogSoftmaxFwdOp::forward(const Tensor& x, Tensor& output) {
  const SoftmaxCall call = SoftmaxCall::of(x, output, params().dim);
  LogSoftmaxKernel& kernel = kernel_for<LogSoftmaxKernel>(call);
  kernel.run(call, x, output, allocate_workspace(kernel.workspace_bytes(call), x.device()));
}

}  // namespace tileops
