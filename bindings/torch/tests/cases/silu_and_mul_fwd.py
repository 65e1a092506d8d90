import torch

from cases import rand

OP = "SiluAndMulFwdOp"


def samples(device):
    return [
        ("rows", {}, (rand((4, 32), device=device),)),
        ("one-row-bf16", {}, (rand((1, 48), torch.bfloat16, device),)),
    ]


def reference(params, x):
    gate, up = x.double().chunk(2, dim=-1)
    return ((torch.nn.functional.silu(gate) * up).to(x.dtype),)


def bad_calls(device):
    return [
        ("odd-width", {}, (rand((4, 31), device=device),), ValueError,
         "SiluAndMulFwdOp: argument 'x': expected x.shape[1] == a multiple of 2 (= 30), got "
         "shape [4, 31]"),
        ("rank", {}, (rand((2, 4, 32), device=device),), ValueError,
         "SiluAndMulFwdOp: argument 'x': expected rank 2 (shape [M, 2 * N]), got shape "
         "[2, 4, 32]"),
    ]
