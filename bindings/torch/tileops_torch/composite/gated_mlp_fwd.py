"""GatedMLPFwdOp: out = (silu(x @ w_gate^T) * (x @ w_up^T)) @ w_down^T, where w_gate_up stacks
w_gate over w_up. The stages of the C++ op (src/ops/composite/gated_mlp_fwd_op.cpp), each a
bound op: gate_up (GEMM), act (SiluAndMul), down (GEMM)."""

from .._generated import GatedMLPFwdOpBase, GemmFwdOp, SiluAndMulFwdOp


class GatedMLPFwdOp(GatedMLPFwdOpBase):
    __doc__ = GatedMLPFwdOpBase.__doc__

    def _init_stages(self):
        self.gate_up = GemmFwdOp(trans_a=False, trans_b=True)  # [M, H] @ [2I, H]^T -> [M, 2I]
        self.act = SiluAndMulFwdOp()  # [M, 2I] -> [M, I]
        self.down = GemmFwdOp(trans_a=False, trans_b=True)  # [M, I] @ [H, I]^T -> [M, H]

    def forward(self, x, w_gate_up, w_down):
        return self.down(self.act(self.gate_up(x, w_gate_up)), w_down)
