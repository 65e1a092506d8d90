// GatedMLPFwdOp: out = (silu(x @ w_gate^T) * (x @ w_up^T)) @ w_down^T, where w_gate_up stacks
// w_gate ([I, H]) over w_up ([I, H]). A composite op: no kernel interfaces of its own; it holds
// two sub-ops through delegate_for: GatedLinearFwdOp ("gate_up", the activation fused into the
// first GEMM's store) and LinearFwdOp ("down"). Two GEMM kernels a call.
#pragma once

#include "tileops/export.hpp"
#include "tileops/generated/composite.gen.hpp"

namespace tileops {

class TILEOPS_API GatedMLPFwdOp final : public gen::GatedMLPFwdOpBase {
 public:
  explicit GatedMLPFwdOp(Params params = {}, Target target = {});
  static const OpDecl& decl();

 private:
  void forward(const Tensor& x, const Tensor& w_gate_up, const Tensor& w_down,
               Tensor& out) override;
};

}  // namespace tileops
