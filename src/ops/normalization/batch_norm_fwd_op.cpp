#include "tileops/ops/normalization/batch_norm_fwd_op.hpp"

#include "tileops/ops/workspace.hpp"

namespace tileops {

std::string BatchNormCall::describe() const {
  return fmt::format("{}, {}, {}, {}, {}, {}, {}, {}, {}", describe_field("device", device),
                     describe_field("dtype", dtype), describe_field("n", n), describe_field("c", c),
                     describe_field("l", l), describe_field("has_weight", has_weight),
                     describe_field("has_bias", has_bias), describe_field("eps", eps),
                     describe_field("momentum", momentum));
}

BatchNormFwdOp::BatchNormFwdOp(Params params, Target target)
    : BatchNormFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& BatchNormFwdOp::decl() {
  static const OpDecl kDecl{{&BatchNormTrainKernel::info(), &BatchNormInferKernel::info()}, {}, {}};
  return kDecl;
}

void BatchNormFwdOp::forward(const Tensor& x, const Tensor& running_mean, const Tensor& running_var,
                             const Tensor& weight, const Tensor& bias, Tensor& output) {
  BatchNormCall call;
  call.device = x.device();
  call.dtype = x.dtype();
  call.n = x.shape()[0];
  call.c = x.shape()[1];
  call.l = 1;
  for (int d = 2; d < x.rank(); ++d) call.l *= x.shape()[d];
  call.has_weight = weight.defined();
  call.has_bias = bias.defined();
  call.eps = params().eps;
  call.momentum = params().momentum;
  if (params().training) {
    BatchNormTrainKernel& kernel = kernel_for<BatchNormTrainKernel>(call);
    kernel.run(call, x, running_mean, running_var, weight, bias, output,
               allocate_workspace(kernel.workspace_bytes(call), x.device()));
  } else {
    BatchNormInferKernel& kernel = kernel_for<BatchNormInferKernel>(call);
    kernel.run(call, x, running_mean, running_var, weight, bias, output,
               allocate_workspace(kernel.workspace_bytes(call), x.device()));
  }
}

}  // namespace tileops
