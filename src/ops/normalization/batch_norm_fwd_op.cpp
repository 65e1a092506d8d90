#include "tileops/ops/normalization/batch_norm_fwd_op.hpp"

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
  int64_t l = 1;
  for (int d = 2; d < x.rank(); ++d) l *= x.shape()[d];
  const BatchNormCall call{{x.device()},     x.dtype(),      x.shape()[0], x.shape()[1],     l,
                           weight.defined(), bias.defined(), params().eps, params().momentum};
  if (params().training) {
    kernel_for<BatchNormTrainKernel>(call).run(call, x, running_mean, running_var, weight, bias,
                                               output);
  } else {
    kernel_for<BatchNormInferKernel>(call).run(call, x, running_mean, running_var, weight, bias,
                                               output);
  }
}

}  // namespace tileops
