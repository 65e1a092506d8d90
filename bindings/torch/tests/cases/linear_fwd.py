import torch

from cases import rand

OP = "LinearFwdOp"


def samples(device):
    return [
        ("plain", {}, (rand((8, 16), device=device), rand((12, 16), device=device, seed=1))),
        ("bias-3d-bf16", {},
         (rand((2, 3, 16), torch.bfloat16, device), rand((12, 16), torch.bfloat16, device, 1),
          rand((12,), torch.bfloat16, device, 2))),
        ("bias-residual", {},
         (rand((5, 24), device=device), rand((7, 24), device=device, seed=1),
          rand((7,), device=device, seed=2), rand((5, 7), device=device, seed=3))),
        ("residual-only-fp16", {},
         (rand((1, 32), torch.float16, device), rand((24, 32), torch.float16, device, 1), None,
          rand((1, 24), torch.float16, device, 3))),
    ]


def reference(params, x, weight, bias=None, residual=None):
    y = torch.nn.functional.linear(x.double(), weight.double(),
                                   None if bias is None else bias.double())
    if residual is not None:
        y = y + residual.double()
    return (y.to(x.dtype),)


def bad_calls(device):
    return [
        ("reduction-dim", {}, (rand((8, 16), device=device), rand((12, 15), device=device)),
         ValueError,
         "LinearFwdOp: argument 'x': expected shape rule `x.shape[-1] == weight.shape[1]` to "
         "hold, got x.shape=[8, 16], weight.shape=[12, 15]"),
    ]
