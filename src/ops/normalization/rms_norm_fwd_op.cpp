#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"

#include "tileops/ops/eps.hpp"
#include "tileops/ops/workspace.hpp"

namespace tileops {

std::string RMSNormCall::describe() const {
  return fmt::format("{}, {}, {}, {}, {}", describe_field("device", device),
                     describe_field("dtype", dtype), describe_field("rows", rows),
                     describe_field("n", n), describe_field("eps", eps));
}

RMSNormFwdOp::RMSNormFwdOp(Params params, Target target)
    : RMSNormFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& RMSNormFwdOp::decl() {
  static const OpDecl kDecl{{&RMSNormKernel::info()}, {}, {}};
  return kDecl;
}

void RMSNormFwdOp::forward(const Tensor& x, const Tensor& weight, Tensor& output) {
  const int64_t n = weight.numel();
  const RMSNormCall call{
      {x.device()}, x.dtype(), n == 0 ? 0 : x.numel() / n, n, resolve_eps(params().eps, x.dtype())};
  RMSNormKernel& kernel = kernel_for<RMSNormKernel>(call);
  kernel.run(call, x, weight, output, allocate_workspace(kernel.workspace_bytes(call), x.device()));
}

}  // namespace tileops
