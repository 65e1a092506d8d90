import torch

from cases import rand

OP = "RMSNormFwdOp"


def samples(device):
    return [
        ("rows", {"normalized_shape": (32,)},
         (rand((4, 32), device=device), rand((32,), device=device, seed=1))),
        ("two-dims-bf16", {"normalized_shape": (2, 16), "eps": 1e-5},
         (rand((3, 2, 16), torch.bfloat16, device), rand((2, 16), torch.bfloat16, device, 1))),
    ]


def reference(params, x, weight):
    dims = tuple(range(-len(params["normalized_shape"]), 0))
    eps = params.get("eps", 1e-6)
    x64 = x.double()
    y = x64 * torch.rsqrt(x64.pow(2).mean(dims, keepdim=True) + eps) * weight.double()
    return (y.to(x.dtype),)


def bad_calls(device):
    x, w = rand((4, 32), device=device), rand((32,), device=device)
    return [
        ("trailing-dims", {"normalized_shape": (32,)}, (rand((4, 31), device=device), w),
         ValueError,
         "RMSNormFwdOp: argument 'x': expected shape rule "
         "`tuple(x.shape[-len(normalized_shape):]) == tuple(normalized_shape)` to hold, got "
         "x.shape=[4, 31], normalized_shape=[32]"),
        ("weight-dtype", {"normalized_shape": (32,)}, (x, w.half()), TypeError,
         "RMSNormFwdOp: argument 'weight': expected dtype same_as(x) (float32), got float16"),
        ("x-dtype", {"normalized_shape": (32,)}, (x.double(), w.double()), TypeError,
         "RMSNormFwdOp: argument 'x': expected dtype float16 | bfloat16 | float32, got float64"),
        ("complex", {"normalized_shape": (32,)}, (x, w.to(torch.complex64)), TypeError,
         "RMSNormFwdOp: argument 'weight': expected dtype same_as(x) (float32), got complex64"),
        ("empty-normalized-shape", {"normalized_shape": ()}, (x, w), ValueError,
         "RMSNormFwdOp: argument 'normalized_shape': expected parameter rule "
         "`len(normalized_shape) > 0` to hold, got normalized_shape=[]"),
        ("rank-9", {"normalized_shape": (32,)}, (rand((1,) * 8 + (32,), device=device), w),
         ValueError,
         "RMSNormFwdOp: argument 'x': expected a tensor of rank at most 8, got shape "
         "[1, 1, 1, 1, 1, 1, 1, 1, 32]"),
        ("nan-eps", {"normalized_shape": (32,), "eps": float("nan")}, (x, w), ValueError,
         "RMSNormFwdOp: argument 'eps': expected parameter rule "
         "`eps is None or (eps >= 0 and isfinite(eps))` to hold, got eps=nan"),
    ]
