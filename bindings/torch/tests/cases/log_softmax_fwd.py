import torch

from cases import rand, softmax_dim

OP = "LogSoftmaxFwdOp"


def samples(device):
    return [
        ("last-dim", {"dim": -1}, (rand((4, 5, 16), device=device, scale=3.0),)),
        ("implicit-dim-fp16", {}, (rand((6, 10), torch.float16, device, scale=3.0),)),
    ]


def reference(params, x):
    dim = softmax_dim(x.dim(), params.get("dim"))
    return (torch.log_softmax(x.double(), dim).to(x.dtype),)


def bad_calls(device):
    return [
        ("dim-range", {"dim": -3}, (rand((4, 16), device=device),), ValueError,
         "LogSoftmaxFwdOp: argument 'dim': expected shape rule "
         "`dim is None or -max(x.ndim, 1) <= dim < max(x.ndim, 1)` to hold, got dim=-3, "
         "x.shape=[4, 16]"),
    ]
