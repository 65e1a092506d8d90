import torch

from cases import rand

OP = "GatedMLPFwdOp"


def samples(device):
    return [
        ("small", {},
         (rand((4, 16), device=device), rand((48, 16), device=device, seed=1, scale=0.25),
          rand((16, 24), device=device, seed=2, scale=0.25))),
        ("decode-bf16", {},
         (rand((1, 32), torch.bfloat16, device),
          rand((32, 32), torch.bfloat16, device, 1, scale=0.25),
          rand((32, 16), torch.bfloat16, device, 2, scale=0.25))),
    ]


def reference(params, x, w_gate_up, w_down):
    # The activation is fused into the first GEMM, whose result rounds to the dtype once, as the
    # composite's first sub-op hands the second a tensor of that dtype.
    h = x.double() @ w_gate_up.double().t()
    gate, up = h.chunk(2, dim=-1)
    a = (torch.nn.functional.silu(gate) * up).to(x.dtype).double()
    return ((a @ w_down.double().t()).to(x.dtype),)


def bad_calls(device):
    x = rand((4, 16), device=device)
    return [
        ("odd-gate-up", {}, (x, rand((47, 16), device=device), rand((16, 24), device=device)),
         ValueError,
         "GatedMLPFwdOp: argument 'w_gate_up': expected w_gate_up.shape[0] == a multiple of 2 "
         "(= 46), got shape [47, 16]"),
        ("down-width", {}, (x, rand((48, 16), device=device), rand((16, 23), device=device)),
         ValueError,
         "GatedMLPFwdOp: argument 'w_down': expected w_down.shape[1] == I (= 24), got shape "
         "[16, 23]"),
    ]
