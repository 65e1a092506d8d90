#include "tileops/ops/reduction/log_softmax_fwd_op.hpp"

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
  const int64_t scratch = kernel.workspace_bytes(call);
  const Tensor workspace =
      scratch > 0 ? Tensor::empty(Shape{scratch}, DType::kUInt8, x.device()) : Tensor();
  kernel.run(call, x, output, workspace);
}

}  // namespace tileops
