import torch

from cases import rand

OP = "GatedLinearFwdOp"

_ACT = {
    "silu": torch.nn.functional.silu,
    "gelu": torch.nn.functional.gelu,
    "gelu_tanh": lambda g: torch.nn.functional.gelu(g, approximate="tanh"),
}


def samples(device):
    return [
        ("silu", {}, (rand((8, 16), device=device), rand((24, 16), device=device, seed=1))),
        ("gelu-3d-bf16", {"activation": "gelu"},
         (rand((2, 3, 16), torch.bfloat16, device), rand((12, 16), torch.bfloat16, device, 1))),
        ("gelu-tanh-decode-fp16", {"activation": "gelu_tanh"},
         (rand((1, 32), torch.float16, device), rand((48, 32), torch.float16, device, 1))),
    ]


def reference(params, x, weight):
    h = torch.nn.functional.linear(x.double(), weight.double())
    gate, up = h.chunk(2, dim=-1)
    return ((_ACT[params.get("activation", "silu")](gate) * up).to(x.dtype),)


def bad_calls(device):
    return [
        ("odd-weight", {}, (rand((4, 16), device=device), rand((7, 16), device=device)),
         ValueError,
         "GatedLinearFwdOp: argument 'weight': expected shape rule `weight.shape[0] % 2 == 0` "
         "to hold, got weight.shape=[7, 16]"),
    ]
