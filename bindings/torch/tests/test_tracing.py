"""Tracing beyond the per-op cold compiles: ops constructed inside the compiled function, dynamic
shapes, and the fakes on devices this machine may not have."""

import torch
from torch._subclasses.fake_tensor import FakeTensorMode

from _harness import expect_error
import tileops_torch


def test_ops_constructed_inside_the_compiled_function():
    def block(x, w, w_gate_up, w_down):
        h = tileops_torch.RMSNormFwdOp(normalized_shape=(16,))(x, w)
        m = tileops_torch.GatedMLPFwdOp()(h, w_gate_up, w_down)
        return tileops_torch.AddFwdOp(alpha=0.5)(x, m)

    args = (torch.randn(5, 16), torch.randn(16), torch.randn(24, 16) * 0.2,
            torch.randn(16, 12) * 0.2)
    torch._dynamo.reset()
    compiled = torch.compile(block, fullgraph=True)
    assert torch.equal(compiled(*args), block(*args))


def test_dynamic_shapes_reuse_one_graph():
    frames = []

    def counting_backend(gm, example_inputs):
        frames.append(gm)
        return gm.forward

    norm = tileops_torch.LayerNormFwdOp(normalized_shape=(32,))
    mlp = tileops_torch.GatedMLPFwdOp()

    def block(x, w, b, w_gate_up, w_down):
        return mlp(norm(x, w, b), w_gate_up, w_down)

    torch._dynamo.reset()
    compiled = torch.compile(block, fullgraph=True, dynamic=True, backend=counting_backend)
    weights = (torch.randn(32), torch.randn(32), torch.randn(64, 32) * 0.2,
               torch.randn(32, 32) * 0.2)
    for tokens in (3, 7, 11):
        x = torch.randn(tokens, 32)
        assert torch.equal(compiled(x, *weights), block(x, *weights))
    assert len(frames) == 1, f"{len(frames)} graphs for three token counts"
    targets = {str(n.target) for n in frames[0].graph.nodes if n.op == "call_function"}
    assert targets == {"tileops.layer_norm_fwd.default", "tileops.gated_linear_fwd.default",
                       "tileops.linear_fwd.default"}, targets


def test_fakes_on_cuda_tensors_without_a_gpu():
    # Fake CUDA tensors need no GPU: the fakes' device rules are checked here too.
    op = tileops_torch.RMSNormFwdOp(normalized_shape=(32,))
    with FakeTensorMode():
        x = torch.empty(4, 32, device="cuda", dtype=torch.bfloat16)
        y = op(x, torch.empty(32, device="cuda", dtype=torch.bfloat16))
        assert (y.device.type, y.dtype, tuple(y.shape)) == ("cuda", torch.bfloat16, (4, 32))
        with expect_error(ValueError, "RMSNormFwdOp: argument 'weight': expected a tensor on "
                                      "cuda:0 (the device of the call's first tensor), got a "
                                      "tensor on cpu"):
            op(x, torch.empty(32, dtype=torch.bfloat16))
