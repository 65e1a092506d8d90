#include "tileops/ops/normalization/fused_add_rms_norm_fwd_op.hpp"

#include "tileops/ops/workspace.hpp"

namespace tileops {

std::string FusedAddRMSNormCall::describe() const {
  return fmt::format("{}, {}, {}, {}, {}", describe_field("device", device),
                     describe_field("dtype", dtype), describe_field("rows", rows),
                     describe_field("n", n), describe_field("eps", eps));
}

FusedAddRMSNormFwdOp::FusedAddRMSNormFwdOp(Params params, Target target)
    : FusedAddRMSNormFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& FusedAddRMSNormFwdOp::decl() {
  static const OpDecl kDecl{{&FusedAddRMSNormKernel::info()}, {}, {}};
  return kDecl;
}

void FusedAddRMSNormFwdOp::forward(const Tensor& x, const Tensor& residual, const Tensor& weight,
                                   Tensor& output, Tensor& residual_out) {
  const int64_t n = weight.numel();
  const FusedAddRMSNormCall call{
      {x.device()}, x.dtype(), n == 0 ? 0 : x.numel() / n, n, params().eps};
  FusedAddRMSNormKernel& kernel = kernel_for<FusedAddRMSNormKernel>(call);
  kernel.run(call, x, residual, weight, output, residual_out,
             allocate_workspace(kernel.workspace_bytes(call), x.device()));
}

}  // namespace tileops
