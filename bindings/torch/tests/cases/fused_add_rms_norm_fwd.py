import torch

from cases import rand

OP = "FusedAddRMSNormFwdOp"


def samples(device):
    return [
        ("rows", {},
         (rand((4, 32), device=device), rand((4, 32), device=device, seed=1),
          rand((32,), device=device, seed=2))),
        ("batch-bf16", {"eps": 1e-5},
         (rand((2, 3, 64), torch.bfloat16, device), rand((2, 3, 64), torch.bfloat16, device, 1),
          rand((64,), torch.bfloat16, device, 2))),
    ]


def reference(params, x, residual, weight):
    eps = params.get("eps", 1e-6)
    summed = (x.double() + residual.double()).to(x.dtype)  # rounded to the dtype, as vLLM does
    s64 = summed.double()
    y = s64 * torch.rsqrt(s64.pow(2).mean(-1, keepdim=True) + eps) * weight.double()
    return (y.to(x.dtype), summed)


def bad_calls(device):
    x = rand((4, 32), device=device)
    return [
        ("residual-shape", {}, (x, rand((4, 16), device=device), rand((32,), device=device)),
         ValueError,
         "FusedAddRMSNormFwdOp: argument 'residual': expected shape rule "
         "`residual.shape == x.shape` to hold, got residual.shape=[4, 16], x.shape=[4, 32]"),
        ("weight-shape", {}, (x, x.clone(), rand((31,), device=device)), ValueError,
         "FusedAddRMSNormFwdOp: argument 'weight': expected shape rule "
         "`weight.shape == (x.shape[-1],)` to hold, got weight.shape=[31], x.shape=[4, 32]"),
    ]
