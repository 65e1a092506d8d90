#include "tileops/ops/gemm/gated_linear_fwd_op.hpp"

namespace tileops {
namespace {

GatedActivation activation_named(const std::string& name) {
  if (name == "gelu") return GatedActivation::kGelu;
  if (name == "gelu_tanh") return GatedActivation::kGeluTanh;
  return GatedActivation::kSilu;  // the manifest's rule admits only these three names
}

}  // namespace

GatedLinearFwdOp::GatedLinearFwdOp(Params params, Target target)
    : GatedLinearFwdOpBase(std::move(params), decl(), std::move(target)),
      activation_(activation_named(this->params().activation)) {}

const OpDecl& GatedLinearFwdOp::decl() {
  static const OpDecl kDecl{{&GemmKernel::info()}, {}, {}};
  return kDecl;
}

void GatedLinearFwdOp::forward(const Tensor& x, const Tensor& weight, Tensor& y) {
  GemmCall call;
  call.device = x.device();
  call.dtype = x.dtype();
  call.n = weight.size(0) / 2;
  call.k = weight.size(1);
  call.m = linear_rows(x);
  call.trans_a = false;
  call.trans_b = true;
  call.aligned16 = starts_on_16_bytes(x) && starts_on_16_bytes(weight);
  call.gated = true;
  call.activation = activation_;
  run_gemm(kernel_for<GemmKernel>(call), call, x, weight, y, {});
}

}  // namespace tileops
