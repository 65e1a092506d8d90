#include "tileops/ops/gemm/bmm_fwd_op.hpp"

namespace tileops {

BmmFwdOp::BmmFwdOp(Params params, Target target)
    : BmmFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& BmmFwdOp::decl() {
  static const OpDecl kDecl{{&GemmKernel::info()}, {}, {}};
  return kDecl;
}

void BmmFwdOp::forward(const Tensor& a, const Tensor& b, Tensor& d) {
  GemmCall call;
  call.device = a.device();
  call.dtype = a.dtype();
  call.batch = d.size(0);
  call.m = d.size(1);
  call.n = d.size(2);
  call.trans_a = params().trans_a;
  call.trans_b = params().trans_b;
  call.k = call.trans_a ? a.size(1) : a.size(2);
  call.aligned16 = starts_on_16_bytes(a) && starts_on_16_bytes(b);
  run_gemm(kernel_for<GemmKernel>(call), call, a, b, d, {});
}

}  // namespace tileops
