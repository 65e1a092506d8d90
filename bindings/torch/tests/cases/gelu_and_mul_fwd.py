import torch

from cases import rand

OP = "GeluAndMulFwdOp"


def samples(device):
    return [
        ("rows", {}, (rand((4, 32), device=device),)),
        ("one-row-bf16", {}, (rand((1, 48), torch.bfloat16, device),)),
        ("leading-dims", {}, (rand((2, 3, 40), device=device),)),
    ]


def reference(params, x):
    gate, up = x.double().chunk(2, dim=-1)
    return ((torch.nn.functional.gelu(gate) * up).to(x.dtype),)


def bad_calls(device):
    return [
        ("odd-width", {}, (rand((4, 31), device=device),), ValueError,
         "GeluAndMulFwdOp: argument 'x': expected shape rule `x.shape[-1] % 2 == 0` to hold, got "
         "x.shape=[4, 31]"),
    ]
