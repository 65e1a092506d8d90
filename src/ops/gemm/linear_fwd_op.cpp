#include "tileops/ops/gemm/linear_fwd_op.hpp"

namespace tileops {

LinearFwdOp::LinearFwdOp(Params params, Target target)
    : LinearFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& LinearFwdOp::decl() {
  static const OpDecl kDecl{{&GemmKernel::info()}, {}, {}};
  return kDecl;
}

void LinearFwdOp::forward(const Tensor& x, const Tensor& weight, const Tensor& bias,
                          const Tensor& residual, Tensor& y) {
  GemmCall call;
  call.device = x.device();
  call.dtype = x.dtype();
  call.n = weight.size(0);
  call.k = weight.size(1);
  call.m = linear_rows(x);
  call.trans_a = false;
  call.trans_b = true;
  call.aligned16 = starts_on_16_bytes(x) && starts_on_16_bytes(weight);
  call.bias = bias.defined();
  call.residual = residual.defined();
  run_gemm(kernel_for<GemmKernel>(call), call, x, weight, y, {bias, residual});
}

}  // namespace tileops
