#include "tileops/ops/composite/gated_mlp_fwd_op.hpp"

#include "tileops/ops/gemm/gated_linear_fwd_op.hpp"
#include "tileops/ops/gemm/linear_fwd_op.hpp"

namespace tileops {

GatedMLPFwdOp::GatedMLPFwdOp(Params params, Target target)
    : GatedMLPFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& GatedMLPFwdOp::decl() {
  static const OpDecl kDecl{{}, {GatedLinearFwdOp::kName, LinearFwdOp::kName}, {}};
  return kDecl;
}

void GatedMLPFwdOp::forward(const Tensor& x, const Tensor& w_gate_up, const Tensor& w_down,
                            Tensor& out) {
  // [M, H] @ [2I, H]^T -> silu(gate) * up: [M, I], in one GEMM.
  GatedLinearFwdOp& gate_up =
      delegate_for<GatedLinearFwdOp>("gate_up", "", {.activation = "silu", .injected = {}});
  const Tensor a = gate_up(x, w_gate_up);
  // [M, I] @ [H, I]^T -> [M, H]
  LinearFwdOp& down = delegate_for<LinearFwdOp>("down", "", {});
  out = down(a, w_down);
}

}  // namespace tileops
