#include "tileops/ops/composite/gated_mlp_fwd_op.hpp"

#include "tileops/ops/elementwise/silu_and_mul_fwd_op.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"

namespace tileops {

GatedMLPFwdOp::GatedMLPFwdOp(Params params, Target target)
    : GatedMLPFwdOpBase(std::move(params), decl(), std::move(target)) {}

const OpDecl& GatedMLPFwdOp::decl() {
  static const OpDecl kDecl{{}, {GemmFwdOp::kName, SiluAndMulFwdOp::kName}, {}};
  return kDecl;
}

void GatedMLPFwdOp::forward(const Tensor& x, const Tensor& w_gate_up, const Tensor& w_down,
                            Tensor& out) {
  // [M, H] @ [2I, H]^T -> [M, 2I]: gate columns, then up columns.
  GemmFwdOp& gate_up = delegate_for<GemmFwdOp>("gate_up", "", {.trans_a = false, .trans_b = true});
  const Tensor h = gate_up(x, w_gate_up);
  // [M, 2I] -> [M, I]
  SiluAndMulFwdOp& act = delegate_for<SiluAndMulFwdOp>("act", "", {});
  const Tensor a = act(h);
  // [M, I] @ [H, I]^T -> [M, H]
  GemmFwdOp& down = delegate_for<GemmFwdOp>("down", "", {.trans_a = false, .trans_b = true});
  out = down(a, w_down);
}

}  // namespace tileops
