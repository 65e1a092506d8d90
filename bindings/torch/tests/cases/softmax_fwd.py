import torch

from cases import rand, softmax_dim

OP = "SoftmaxFwdOp"


def samples(device):
    return [
        ("last-dim", {"dim": -1}, (rand((4, 5, 16), device=device, scale=3.0),)),
        ("implicit-dim-bf16", {}, (rand((3, 7, 9), torch.bfloat16, device, scale=3.0),)),
        ("middle-dim", {"dim": 1}, (rand((2, 6, 5), device=device, scale=3.0),)),
    ]


def reference(params, x):
    dim = softmax_dim(x.dim(), params.get("dim"))
    return (torch.softmax(x.double(), dim).to(x.dtype),)


def bad_calls(device):
    return [
        ("dim-range", {"dim": 3}, (rand((4, 5, 16), device=device),), ValueError,
         "SoftmaxFwdOp: argument 'dim': expected shape rule "
         "`dim is None or -max(x.ndim, 1) <= dim < max(x.ndim, 1)` to hold, got dim=3, "
         "x.shape=[4, 5, 16]"),
    ]
