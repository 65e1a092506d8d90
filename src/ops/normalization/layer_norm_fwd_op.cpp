#include "tileops/ops/normalization/layer_norm_fwd_op.hpp"

#include "tileops/ops/eps.hpp"
#include "tileops/ops/workspace.hpp"

namespace tileops {

std::string LayerNormCall::describe() const {
  return fmt::format("{}, {}, {}, {}, {}", describe_field("device", device),
                     describe_field("dtype", dtype), describe_field("rows", rows),
                     describe_field("n", n), describe_field("eps", eps));
}

LayerNormFwdOp::LayerNormFwdOp(Params params, Target target)
    : LayerNormFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& LayerNormFwdOp::decl() {
  static const OpDecl kDecl{{&LayerNormKernel::info()}, {}, {}};
  return kDecl;
}

void LayerNormFwdOp::forward(const Tensor& x, const Tensor& weight, const Tensor& bias,
                             Tensor& output) {
  const int64_t n = weight.numel();
  const LayerNormCall call{
      {x.device()}, x.dtype(), n == 0 ? 0 : x.numel() / n, n, resolve_eps(params().eps, x.dtype())};
  LayerNormKernel& kernel = kernel_for<LayerNormKernel>(call);
  kernel.run(call, x, weight, bias, output,
             allocate_workspace(kernel.workspace_bytes(call), x.device()));
}

}  // namespace tileops
