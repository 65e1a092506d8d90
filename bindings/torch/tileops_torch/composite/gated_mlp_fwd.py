"""GatedMLPFwdOp: out = (silu(x @ w_gate^T) * (x @ w_up^T)) @ w_down^T, where w_gate_up stacks
w_gate over w_up. The stages of the C++ op (src/ops/composite/gated_mlp_fwd_op.cpp), each a
bound op: gate_up (GatedLinear, the SiLU fused into the GEMM's store) and down (Linear)."""

from .._generated import GatedLinearFwdOp, GatedMLPFwdOpBase, LinearFwdOp


class GatedMLPFwdOp(GatedMLPFwdOpBase):
    __doc__ = GatedMLPFwdOpBase.__doc__

    def _init_stages(self):
        self.gate_up = GatedLinearFwdOp(activation="silu")  # [M, H] @ [2I, H]^T -> [M, I]
        self.down = LinearFwdOp()  # [M, I] @ [H, I]^T -> [M, H]

    def forward(self, x, w_gate_up, w_down):
        return self.down(self.gate_up(x, w_gate_up), w_down)
