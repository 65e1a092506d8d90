#include "tileops/ops/gemm/gemm_fwd_op.hpp"

namespace tileops {

GemmFwdOp::GemmFwdOp(Params params, Target target)
    : GemmFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& GemmFwdOp::decl() {
  static const OpDecl kDecl{{&GemmKernel::info()}, {}, {}};
  return kDecl;
}

void GemmFwdOp::forward(const Tensor& a, const Tensor& b, Tensor& d) {
  const bool trans_a = params().trans_a;
  const bool trans_b = params().trans_b;
  GemmCall call;
  call.device = a.device();
  call.dtype = a.dtype();
  call.m = d.size(0);
  call.n = d.size(1);
  call.k = trans_a ? a.size(0) : a.size(1);
  call.trans_a = trans_a;
  call.trans_b = trans_b;
  call.aligned16 = starts_on_16_bytes(a) && starts_on_16_bytes(b);
  run_gemm(kernel_for<GemmKernel>(call), call, a, b, d, {});
}

}  // namespace tileops
