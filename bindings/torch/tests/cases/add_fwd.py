import torch

from cases import rand

OP = "AddFwdOp"


def samples(device):
    return [
        ("broadcast-alpha", {"alpha": 2},
         (rand((4, 16), device=device), rand((16,), device=device, seed=1))),
        ("same-shape-fp16", {"alpha": 0.5},
         (rand((3, 8), torch.float16, device), rand((3, 8), torch.float16, device, 1))),
        ("both-broadcast", {},
         (rand((4, 1, 8), device=device), rand((3, 1), device=device, seed=1))),
    ]


def reference(params, input, other):
    y = torch.add(input.double(), other.double(), alpha=params.get("alpha", 1))
    return (y.to(input.dtype),)


def bad_calls(device):
    return [
        ("no-broadcast", {}, (rand((4, 16), device=device), rand((3, 16), device=device)),
         ValueError,
         "AddFwdOp: argument 'input': expected shape rule "
         "`output.shape == broadcast_shapes(input.shape, other.shape)` to hold, got "
         "input.shape=[4, 16], other.shape=[3, 16]"),
        ("bool-alpha", {"alpha": True}, (rand((4,), device=device), rand((4,), device=device)),
         ValueError, "AddFwdOp: argument 'alpha': expected a float, got bool true"),
    ]
